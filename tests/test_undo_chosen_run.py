"""Undo of a chosen run, not only the last: it puts back only what that run changed, never deletes a
file the run did not create, says beforehand what it will restore and delete, refuses deletions
the user did not agree to, and Redo brings the run back."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tools.run_snapshot import (
    NothingToUndoError,
    RunSnapshots,
    SnapshotError,
    UndoConflictError,
    UndoNeedsConfirmationError,
)
from tools.workspace_files import WorkspaceFiles


def _run(ws: Path, label: str, writes: dict[str, str], end: bool = True) -> str:
    snaps = RunSnapshots(ws)
    run_id = snaps.begin_run(label)
    files = WorkspaceFiles(ws, before_write=snaps.record_write)
    for rel, text in writes.items():
        files.write_text(rel, text)
    if end:
        snaps.end_run(run_id)
    return run_id


def _tree(ws: Path) -> dict[str, bytes]:
    return {
        p.relative_to(ws).as_posix(): p.read_bytes()
        for p in sorted(ws.rglob("*"))
        if p.is_file() and ".localcrew" not in p.relative_to(ws).parts
    }


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    (tmp_path / "a.py").write_text("a = 1\n")
    (tmp_path / "b.py").write_text("b = 1\n")
    return tmp_path


def test_undo_of_an_older_run_restores_only_its_files_and_keeps_the_later_run_and_the_users_files(
    ws: Path,
) -> None:
    first = _run(ws, "first", {"a.py": "a = 2\n", "new1.py": "n = 1\n"})
    _run(ws, "second", {"b.py": "b = 2\n"})
    (ws / "user.py").write_text("mine = 1\n")  # added by hand after both runs
    snaps = RunSnapshots(ws)
    assert [r.label for r in snaps.runs()] == ["second", "first"]
    plan = snaps.undo_plan(first)
    assert (plan.restore, plan.delete, plan.kept) == (["a.py"], ["new1.py"], [])
    assert _tree(ws)["a.py"] == b"a = 2\n"  # a plan changes nothing
    result = snaps.undo(first, allow_delete=plan.delete)
    assert (result.restored, result.deleted) == (["a.py"], ["new1.py"])
    assert _tree(ws) == {"a.py": b"a = 1\n", "b.py": b"b = 2\n", "user.py": b"mine = 1\n"}
    assert snaps.last_run() is not None and snaps.last_run().label == "second"  # type: ignore[union-attr]


def test_an_undo_that_would_delete_what_was_not_agreed_changes_nothing(ws: Path) -> None:
    run_id = _run(ws, "adds", {"a.py": "a = 2\n", "new.py": "n = 1\n"})
    before = _tree(ws)
    snaps = RunSnapshots(ws)
    with pytest.raises(UndoNeedsConfirmationError) as refused:
        snaps.undo(run_id, allow_delete=[])
    assert refused.value.plan.delete == ["new.py"] and _tree(ws) == before
    assert not snaps.runs()[0].undone
    # With nothing to delete, no agreement is needed.
    other = _run(ws, "edits", {"b.py": "b = 2\n"})
    assert RunSnapshots(ws).undo(other, allow_delete=[]).restored == ["b.py"]


def test_a_later_change_to_the_same_lines_stops_the_undo_and_is_named(ws: Path) -> None:
    # Undo merges a file changed again since (tests/test_undo_merge.py); on the same line it cannot.
    first = _run(ws, "first", {"a.py": "a = 2\n", "c.py": "c = 2\n"})
    _run(ws, "second", {"a.py": "a = 3\n"})
    snaps = RunSnapshots(ws)
    with pytest.raises(UndoConflictError, match=r"a\.py \(line 1\)"):
        snaps.undo_plan(first)
    with pytest.raises(UndoConflictError):
        snaps.undo(first, allow_delete=[])
    assert (ws / "a.py").read_text() == "a = 3\n" and (ws / "c.py").read_text() == "c = 2\n"


def test_redo_of_a_chosen_run_brings_it_back_and_keeps_the_users_work(ws: Path) -> None:
    first = _run(ws, "first", {"a.py": "a = 2\n", "new1.py": "n = 1\n"})
    second = _run(ws, "second", {"b.py": "b = 2\n"})
    snaps = RunSnapshots(ws)
    snaps.undo(first)
    snaps.undo(second)
    (ws / "user.py").write_text("mine = 1\n")
    assert snaps.redo(first).label == "first"  # not the one undone last
    assert _tree(ws) == {
        "a.py": b"a = 2\n",
        "b.py": b"b = 1\n",
        "new1.py": b"n = 1\n",
        "user.py": b"mine = 1\n",
    }
    assert snaps.redo().label == "second"  # None: the one undone last
    assert (ws / "b.py").read_text() == "b = 2\n"
    with pytest.raises(NothingToUndoError):
        snaps.redo()


def test_a_killed_older_run_undoes_only_what_it_journaled(ws: Path) -> None:
    killed = _run(ws, "killed", {"a.py": "a = 2\n", "new.py": "n = 1\n"}, end=False)
    _run(ws, "later", {"b.py": "b = 2\n"})
    (ws / "user.py").write_text("mine = 1\n")
    snaps = RunSnapshots(ws)
    plan = snaps.undo_plan(killed)
    assert (plan.restore, plan.delete, plan.whole_tree) == (["a.py"], ["new.py"], False)
    snaps.undo(killed, allow_delete=plan.delete)
    assert _tree(ws) == {"a.py": b"a = 1\n", "b.py": b"b = 2\n", "user.py": b"mine = 1\n"}


def test_a_bad_or_undone_run_id_is_refused_with_a_reason(ws: Path) -> None:
    run_id = _run(ws, "one", {"a.py": "a = 2\n"})
    snaps = RunSnapshots(ws)
    for bad in ("../../etc", "no-such-run", ""):
        with pytest.raises(SnapshotError, match="no run"):
            snaps.undo(bad or "..")
    snaps.undo(run_id)
    with pytest.raises(NothingToUndoError, match="already undone"):
        snaps.undo(run_id)
    assert os.listdir(ws / ".localcrew" / "snapshots" / "runs") == [run_id]
