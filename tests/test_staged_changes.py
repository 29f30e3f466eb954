"""Review before write (issue 40 item 3), the tools side: a staged run changes nothing on disk;
accepting a file (or some of its hunks) writes it as an undoable run; rejecting drops it; a file
edited since is merged, or refused on the same lines with nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.run_snapshot import RunSnapshots
from tools.staged_changes import StagedChanges, StagedFile, StagingError

BASE = "".join(f"line {i}\n" for i in range(1, 21))
PROPOSED = BASE.replace("line 2\n", "line two\n").replace("line 18\n", "line eighteen\n")


def files_now(ws: Path) -> dict[str, bytes]:
    return {
        p.relative_to(ws).as_posix(): p.read_bytes()
        for p in sorted(ws.rglob("*"))
        if p.is_file() and ".localcrew" not in p.relative_to(ws).parts
    }


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    (tmp_path / "a.txt").write_text(BASE)
    (tmp_path / "b.py").write_text("b = 1\n")
    return tmp_path


def staged(ws: Path) -> tuple[StagedChanges, str]:
    staging = StagedChanges(ws)
    stage_id = staging.stage(
        "two edits and a new file",
        [
            StagedFile("a.txt", BASE, PROPOSED),
            StagedFile("new.py", None, "n = 1\n"),
            StagedFile("b.py", "b = 1\n", None),
        ],
    )
    return staging, stage_id


def test_staging_touches_nothing_and_lists_hunks(ws: Path) -> None:
    before = files_now(ws)
    staging, stage_id = staged(ws)
    assert files_now(ws) == before
    [(listed, label, files)] = staging.pending()
    assert listed == stage_id and [f.rel for f in files] == ["a.txt", "new.py", "b.py"]
    hunks = files[0].hunks()
    assert len(hunks) == 2 and "+line two" in hunks[0].text() and "+line eighteen" in hunks[1].text()


def test_accepting_one_hunk_writes_only_it_and_undo_takes_it_back(ws: Path) -> None:
    staging, stage_id = staged(ws)
    assert "1 of 2 hunks" in staging.accept(stage_id, "a.txt", [1])
    assert (ws / "a.txt").read_text() == BASE.replace("line 18\n", "line eighteen\n")
    assert [f.rel for f in staging.pending()[0][2]] == ["new.py", "b.py"]  # a.txt is decided
    RunSnapshots(ws).undo()
    assert (ws / "a.txt").read_text() == BASE


def test_accept_creates_and_deletes_reject_drops(ws: Path) -> None:
    staging, stage_id = staged(ws)
    staging.accept(stage_id, "new.py")
    assert (ws / "new.py").read_text() == "n = 1\n"
    assert "rejected" in staging.reject(stage_id, "b.py")
    assert (ws / "b.py").read_text() == "b = 1\n"
    staging.accept(stage_id, "a.txt")
    assert (ws / "a.txt").read_text() == PROPOSED and staging.pending() == []


def test_accept_all_writes_the_whole_set_as_one_run_that_one_undo_takes_back(ws: Path) -> None:
    before = files_now(ws)
    staging, stage_id = staged(ws)
    done = staging.accept_all(stage_id)
    assert "a.txt: written" in done and "new.py: written" in done and "b.py: deleted" in done
    assert (ws / "a.txt").read_text() == PROPOSED and (ws / "new.py").read_text() == "n = 1\n"
    assert not (ws / "b.py").exists() and staging.pending() == []
    RunSnapshots(ws).undo()  # one run: all three back at once
    assert files_now(ws) == before


def test_accept_all_writes_nothing_when_one_file_cannot_take_its_change(ws: Path) -> None:
    staging, stage_id = staged(ws)
    (ws / "a.txt").write_text(BASE.replace("line 18\n", "line 18  # mine\n"))  # same lines as the run
    before = files_now(ws)
    with pytest.raises(StagingError, match="same lines"):
        staging.accept_all(stage_id)
    assert files_now(ws) == before  # new.py not created, b.py not deleted
    assert [f.rel for f in staging.pending()[0][2]] == ["a.txt", "new.py", "b.py"]  # all still wait


def test_a_file_edited_since_is_merged_or_refused(ws: Path) -> None:
    staging, stage_id = staged(ws)
    (ws / "a.txt").write_text(BASE.replace("line 10\n", "line 10  # mine\n"))
    staging.accept(stage_id, "a.txt", [0])
    assert (ws / "a.txt").read_text() == BASE.replace("line 10\n", "line 10  # mine\n").replace(
        "line 2\n", "line two\n"
    )
    staging, stage_id = staged(ws)  # staged again, now from the file as it was before that edit
    (ws / "a.txt").write_text(BASE.replace("line 18\n", "line 18  # mine\n"))
    before = files_now(ws)
    with pytest.raises(StagingError, match="same lines"):
        staging.accept(stage_id, "a.txt")
    assert files_now(ws) == before


def test_a_created_file_is_not_written_over_something_already_there(ws: Path) -> None:
    staging, stage_id = staged(ws)
    (ws / "new.py").write_bytes(b"\x00binary of the user's")
    with pytest.raises(StagingError):
        staging.accept(stage_id, "new.py")
    assert (ws / "new.py").read_bytes() == b"\x00binary of the user's"


def test_auto_review_is_for_changes_to_more_than_one_existing_file() -> None:
    from tools.staged_changes import needs_review

    one_edit = [StagedFile("a.py", "a\n", "b\n"), StagedFile("new.py", None, "n\n")]
    two_edits = [*one_edit, StagedFile("b.py", "b\n", "c\n")]
    assert not needs_review("auto", one_edit) and needs_review("auto", two_edits)
    assert needs_review("always", one_edit) and not needs_review("never", two_edits)


def _a_run(ws: Path, writes: dict[str, str], label: str = "edit a and b") -> str:
    """A run as the crew records one: its writes journaled in place."""
    from tests.test_undo_merge import run

    return run(ws, label, writes)


def test_a_run_over_two_existing_files_is_held_for_review_and_the_project_is_as_it_was(ws: Path) -> None:
    from tools.staged_changes import stage_run

    before = files_now(ws)
    run_id = _a_run(ws, {"a.txt": PROPOSED, "b.py": "b = 2\n", "sub/new.py": "n = 1\n"})
    said = stage_run(ws, run_id, "edit a and b", "auto")
    assert said is not None and "Review" in said and "b.py" in said
    assert files_now(ws) == before and not (ws / "sub").exists()  # the made file and folder went too
    # The run list says the run is held, not that the user undid it (issue 58).
    from gui.run_review import run_choices

    assert "held for review" in dict((rid, text) for text, rid in run_choices(ws))[run_id]
    from gui.workspace_actions import last_run_diff

    assert "held for review" in last_run_diff(ws) and "Review tab" in last_run_diff(ws)  # not "no run yet"
    [(stage_id, _label, files)] = StagedChanges(ws).pending()
    assert {f.rel: (f.base, f.proposed) for f in files} == {
        "a.txt": (BASE, PROPOSED),
        "b.py": ("b = 1\n", "b = 2\n"),
        "sub/new.py": (None, "n = 1\n"),
    }
    StagedChanges(ws).accept(stage_id, "a.txt", [0])  # one hunk of one file lands, nothing else
    StagedChanges(ws).accept(stage_id, "sub/new.py")
    assert (ws / "a.txt").read_text() == BASE.replace("line 2\n", "line two\n")
    assert (ws / "b.py").read_text() == "b = 1\n" and (ws / "sub" / "new.py").read_text() == "n = 1\n"


def test_one_edited_file_stays_on_disk_under_auto_and_nothing_is_held_under_never(ws: Path) -> None:
    from tools.staged_changes import stage_run

    run_id = _a_run(ws, {"a.txt": PROPOSED, "new.py": "n = 1\n"})
    assert stage_run(ws, run_id, "edit a", "auto") is None  # one existing file: undo is enough
    assert (ws / "a.txt").read_text() == PROPOSED and StagedChanges(ws).pending() == []
    run_id = _a_run(ws, {"a.txt": BASE, "b.py": "b = 3\n"})
    assert stage_run(ws, run_id, "edit both", "never") is None
    assert (ws / "b.py").read_text() == "b = 3\n"
    run_id = _a_run(ws, {"a.txt": PROPOSED})
    assert stage_run(ws, run_id, "edit a again", "always") is not None
    assert (ws / "a.txt").read_text() == BASE


def test_a_run_whose_change_is_not_all_text_stays_on_disk(ws: Path) -> None:
    from tools.staged_changes import stage_run

    snaps = RunSnapshots(ws)
    run_id = snaps.begin_run("a link and an edit")
    (ws / "a.txt").write_text(PROPOSED)
    (ws / "b.py").write_text("b = 9\n")
    (ws / "link").symlink_to("a.txt")
    snaps.end_run(run_id)
    assert stage_run(ws, run_id, "a link and an edit", "always") is None
    assert (ws / "a.txt").read_text() == PROPOSED and (ws / "link").is_symlink()


def test_one_edited_file_is_held_under_auto_when_the_change_reaches_past_the_request(ws: Path) -> None:
    from tools.staged_changes import stage_run

    run_id = _a_run(ws, {"a.txt": PROPOSED})
    said = stage_run(ws, run_id, "edit a", "auto", lambda changes: [f"it changed {changes[0][0]} unasked"])
    assert said is not None and "reaches past the request: it changed a.txt unasked" in said
    assert (ws / "a.txt").read_text() == BASE and len(StagedChanges(ws).pending()) == 1
    other = _a_run(ws, {"a.txt": PROPOSED}, "edit a again")
    assert stage_run(ws, other, "edit a again", "never", lambda _: ["anything"]) is None
    assert (ws / "a.txt").read_text() == PROPOSED
