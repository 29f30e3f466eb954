"""gui.run_review: the Undo chooser names a run that changed nothing and offers the last real change;
Reject offers only the files the last run changed."""

from __future__ import annotations

from pathlib import Path

from gui.run_review import newest_undoable, run_choices, run_files, undo_run
from tools.run_snapshot import RunSnapshots
from tools.workspace_files import WorkspaceFiles


def run(ws: Path, label: str, writes: dict[str, str]) -> str:
    snaps = RunSnapshots(ws)
    files = WorkspaceFiles(ws, before_write=snaps.record_write)
    run_id = snaps.begin_run(label)
    for rel, text in writes.items():
        files.write_text(rel, text)
    snaps.end_run(run_id)
    return run_id


def test_undo_offers_the_last_run_that_changed_something(tmp_path: Path) -> None:
    (tmp_path / "todo.py").write_text("items = []\n")
    edit = run(tmp_path, "add done()", {"todo.py": "items = []\n\n\ndef done(i):\n    pass\n"})
    same = run(tmp_path, "sort pending()", {"todo.py": "items = []\n\n\ndef done(i):\n    pass\n"})
    labels = dict((run_id, label) for label, run_id in run_choices(tmp_path))
    assert "changed nothing" in labels[same] and "todo.py" in labels[edit]
    assert newest_undoable(tmp_path) == edit
    message, pending = undo_run(tmp_path, newest_undoable(tmp_path))
    assert pending is None and "todo.py" in message
    assert (tmp_path / "todo.py").read_text() == "items = []\n"


def test_when_no_run_changed_anything_the_last_one_is_still_offered(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    only = run(tmp_path, "look at a.py", {"a.py": "x = 1\n"})
    assert newest_undoable(tmp_path) == only
    assert newest_undoable(tmp_path / "missing") is None


def test_reject_lists_only_the_files_the_last_run_changed(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "b.py").write_text("y = 2\n")
    run(tmp_path, "change b.py", {"a.py": "x = 1\n", "b.py": "y = 3\n"})
    assert run_files(tmp_path) == ["b.py"]
    run(tmp_path, "look again", {"a.py": "x = 1\n"})
    assert run_files(tmp_path) == []
