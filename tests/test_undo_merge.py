"""Undo that merges (issue 40 item 4): undoing a run whose files changed again later takes out only
that run's change, as a three-way merge, and keeps the later edits (by hand or by a later run);
where both changed the same lines it stops, names them, and changes nothing on disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.run_snapshot import RejectNeedsConfirmationError, RunSnapshots, UndoConflictError, journal_applied
from tools.text_merge import merge3
from tools.workspace_files import WorkspaceFiles

ORIGINAL = "def area(w, h):\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n"


def run(ws: Path, label: str, writes: dict[str, str]) -> str:
    snaps = RunSnapshots(ws)
    run_id = snaps.begin_run(label)
    files = WorkspaceFiles(ws, before_write=snaps.record_write)
    for rel, text in writes.items():
        files.write_text(rel, text)
    snaps.end_run(run_id)
    return run_id


def files_now(ws: Path) -> dict[str, bytes]:
    return {
        p.relative_to(ws).as_posix(): p.read_bytes()
        for p in sorted(ws.rglob("*"))
        if p.is_file() and ".localcrew" not in p.relative_to(ws).parts
    }


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    (tmp_path / "shapes.py").write_text(ORIGINAL)
    return tmp_path


def test_undo_after_a_hand_edit_takes_out_only_the_runs_change(ws: Path) -> None:
    changed = ORIGINAL.replace("return w * h", 'if w < 0:\n        raise ValueError("w")\n    return w * h')
    run_id = run(ws, "validate w", {"shapes.py": changed})
    mine = changed.replace("2 * (w + h)", "2 * w + 2 * h  # mine")
    (ws / "shapes.py").write_text(mine)

    plan = RunSnapshots(ws).undo_plan(run_id)
    assert plan.merged == ["shapes.py"] and plan.kept == [] and plan.delete == []
    result = RunSnapshots(ws).undo(run_id)
    assert result.merged == ["shapes.py"]
    assert (ws / "shapes.py").read_text() == ORIGINAL.replace("2 * (w + h)", "2 * w + 2 * h  # mine")

    RunSnapshots(ws).redo(run_id)  # and Redo puts the run's change back in, the edit still there
    assert (ws / "shapes.py").read_text() == mine


def test_undo_of_an_earlier_run_keeps_a_later_runs_change_to_the_same_file(ws: Path) -> None:
    first = ORIGINAL.replace("def area", "# Shapes.\n\n\ndef area")
    earlier = run(ws, "a comment on top", {"shapes.py": first})
    second = first + "\n\ndef square(s):\n    return s * s\n"
    run(ws, "add square", {"shapes.py": second, "new.py": "x = 1\n"})
    RunSnapshots(ws).undo(earlier)
    assert (ws / "shapes.py").read_text() == ORIGINAL + "\n\ndef square(s):\n    return s * s\n"
    assert (ws / "new.py").read_text() == "x = 1\n"


def test_undo_stops_where_the_same_lines_changed_and_changes_nothing(ws: Path) -> None:
    (ws / "other.py").write_text("o = 1\n")
    run_id = run(
        ws, "double area", {"shapes.py": ORIGINAL.replace("w * h", "2 * w * h"), "other.py": "o = 2\n"}
    )
    (ws / "shapes.py").write_text(ORIGINAL.replace("w * h", "w * h * 3  # mine"))
    before = files_now(ws)
    with pytest.raises(UndoConflictError) as caught:
        RunSnapshots(ws).undo(run_id)
    assert "shapes.py (line 2)" in str(caught.value) and "Nothing was changed" in str(caught.value)
    assert files_now(ws) == before  # other.py too: all or nothing
    assert RunSnapshots(ws).last_run() is not None and not RunSnapshots(ws).last_run().undone


def test_merge_keeps_line_endings_and_a_last_line_without_newline(ws: Path) -> None:
    crlf = "a = 1\r\nb = 1\r\nc = 1\r\nd = 1"
    (ws / "w.py").write_bytes(crlf.encode())
    # The run's change made as a program run as a check would: bytes as they are.
    snaps = RunSnapshots(ws)
    run_id = snaps.begin_run("change b")
    journal_applied(ws, ["w.py"])  # as that program's apply-back journals it
    (ws / "w.py").write_bytes(crlf.replace("b = 1", "b = 2").encode())
    snaps.end_run(run_id)
    (ws / "w.py").write_bytes(crlf.replace("b = 1", "b = 2").replace("d = 1", "d = 9").encode())
    snaps.undo(run_id)
    assert (ws / "w.py").read_bytes() == crlf.replace("d = 1", "d = 9").encode()


def test_a_file_the_run_created_and_the_user_edited_is_kept(ws: Path) -> None:
    run_id = run(ws, "add util", {"util.py": "def u():\n    pass\n"})
    (ws / "util.py").write_text("def u():\n    pass\n\n\ndef mine():\n    pass\n")
    result = RunSnapshots(ws).undo(run_id)
    assert (ws / "util.py").exists() and any(k.startswith("util.py") for k in result.not_restored)


def test_reject_asks_before_deleting_a_created_file_and_merges_an_edited_one(ws: Path) -> None:
    changed = ORIGINAL.replace("return w * h", "return abs(w * h)")
    run(ws, "abs area and a helper", {"shapes.py": changed, "helper.py": "h = 1\n"})
    snaps = RunSnapshots(ws)
    with pytest.raises(RejectNeedsConfirmationError):
        snaps.reject_file("helper.py", confirm_delete=False)
    assert (ws / "helper.py").read_text() == "h = 1\n"
    assert "removed" in snaps.reject_file("helper.py", confirm_delete=True)
    assert not (ws / "helper.py").exists()
    (ws / "shapes.py").write_text(changed + "\n\nMINE = 1\n")
    assert "later edits kept" in snaps.reject_file("shapes.py", confirm_delete=False)
    assert (ws / "shapes.py").read_text() == ORIGINAL + "\n\nMINE = 1\n"


def test_run_diff_shows_the_chosen_runs_own_change(ws: Path) -> None:
    earlier = run(ws, "area", {"shapes.py": ORIGINAL.replace("w * h", "h * w")})
    run(ws, "perimeter", {"shapes.py": ORIGINAL.replace("w * h", "h * w").replace("(w + h)", "(h + w)")})
    info, diff = RunSnapshots(ws).run_diff(earlier)
    assert info is not None and info.label == "area"
    assert "+    return h * w" in diff and "(h + w)" not in diff


@pytest.mark.parametrize(
    ("ours", "theirs", "merged"),
    [
        ("a\nB\nc\nd\n", "a\nb\nc\nD\n", "a\nB\nc\nD\n"),  # apart
        ("a\nB\nc\nd\n", "a\nb\nC\nd\n", "a\nB\nC\nd\n"),  # neighbouring lines
        ("a\nB\nc\nd\n", "a\nB\nc\nd\n", "a\nB\nc\nd\n"),  # the same change on both sides
        ("x\na\nb\nc\nd\n", "a\nb\nc\nd\ny\n", "x\na\nb\nc\nd\ny\n"),  # inserts at both ends
    ],
)
def test_merge3_takes_both_changes(ours: str, theirs: str, merged: str) -> None:
    assert merge3("a\nb\nc\nd\n", ours, theirs).text == merged


def test_merge3_names_the_conflicting_lines_of_the_current_file() -> None:
    result = merge3("a\nb\nc\nd\n", "new\na\nB\nc\nd\n", "a\nX\nc\nd\n")
    assert result.text is None and result.where() == "line 3"
    assert merge3("a\nb\n", "a\nnew\nb\n", "a\nc\n").text is None  # an insertion at the changed line
