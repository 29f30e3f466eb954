"""Per-file Reject of the last run's change and Redo of the last Undo, keeping the user's work."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.run_snapshot import NothingToUndoError, RunSnapshots, SnapshotError
from tools.workspace_files import WorkspaceFiles


def _run(ws: Path, writes: dict[str, str]) -> RunSnapshots:
    snaps = RunSnapshots(ws)
    run_id = snaps.begin_run("crew run")
    files = WorkspaceFiles(ws, before_write=snaps.record_write)
    for rel, text in writes.items():
        files.write_text(rel, text)
    snaps.end_run(run_id)
    return snaps


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    (tmp_path / "a.py").write_text("a = 1\n")
    (tmp_path / "b.py").write_text("b = 1\n")
    return tmp_path


def test_reject_puts_one_file_back_and_keeps_the_runs_other_files_and_the_users_edits(ws: Path) -> None:
    snaps = _run(ws, {"a.py": "a = 2\n", "b.py": "b = 2\n", "new.py": "n = 1\n"})
    (ws / "mine.py").write_text("mine = 1\n")  # the user's own work after the run
    assert "put back" in snaps.reject_file("a.py")
    assert (ws / "a.py").read_text() == "a = 1\n" and (ws / "b.py").read_text() == "b = 2\n"
    assert "removed" in snaps.reject_file("new.py") and not (ws / "new.py").exists()
    assert (ws / "mine.py").read_text() == "mine = 1\n"
    info, diff = snaps.last_run_diff()  # the diff now shows only what is still changed
    assert info is not None and "b = 2" in diff and "a = 2" not in diff


def test_reject_refuses_a_file_edited_again_after_the_run_and_files_the_run_did_not_write(ws: Path) -> None:
    snaps = _run(ws, {"a.py": "a = 2\n"})
    (ws / "a.py").write_text("a = 2  # and the user's edit\n")
    with pytest.raises(SnapshotError, match="changed again"):
        snaps.reject_file("a.py")
    assert (ws / "a.py").read_text() == "a = 2  # and the user's edit\n"
    with pytest.raises(SnapshotError, match="not a file the last run wrote"):
        snaps.reject_file("b.py")


def test_redo_brings_the_undone_run_back_and_keeps_what_changed_since(ws: Path) -> None:
    snaps = _run(ws, {"a.py": "a = 2\n", "new.py": "n = 1\n"})
    with pytest.raises(NothingToUndoError):
        snaps.redo()  # nothing undone yet
    snaps.undo()
    assert (ws / "a.py").read_text() == "a = 1\n" and not (ws / "new.py").exists()
    (ws / "b.py").write_text("b = 3  # edited after the undo\n")
    result = snaps.redo()
    assert (ws / "a.py").read_text() == "a = 2\n" and (ws / "new.py").read_text() == "n = 1\n"
    assert (ws / "b.py").read_text() == "b = 3  # edited after the undo\n"
    assert set(result.restored) >= {"a.py", "new.py"}
    assert snaps.last_run() is not None  # undoable again
    snaps.undo()
    assert (ws / "a.py").read_text() == "a = 1\n" and (ws / "b.py").read_text().startswith("b = 3")


def test_redo_keeps_a_file_the_user_changed_after_the_undo(ws: Path) -> None:
    snaps = _run(ws, {"a.py": "a = 2\n"})
    snaps.undo()
    (ws / "a.py").write_text("a = 9  # the user's\n")
    result = snaps.redo()
    assert (ws / "a.py").read_text() == "a = 9  # the user's\n"
    assert any(item.startswith("a.py") for item in result.not_restored)
