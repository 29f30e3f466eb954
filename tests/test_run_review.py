"""gui.run_review: the Undo chooser names a run that changed nothing and offers the last real change;
Reject offers only the files the last run changed."""

from __future__ import annotations

from pathlib import Path

from gui.run_review import (
    newest_undoable,
    redo_run,
    reject_file,
    run_choices,
    run_diff,
    run_files,
    undo_run,
)
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


def test_the_run_chooser_names_only_the_files_a_run_changed(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    run_id = run(tmp_path, "change b.py", {"a.py": "x = 1\n", "b.py": "y = 3\n"})
    label = dict((rid, text) for text, rid in run_choices(tmp_path))[run_id]
    assert "b.py" in label and "a.py" not in label


def test_reject_asks_before_deleting_a_file_the_run_created(tmp_path: Path) -> None:
    run(tmp_path, "add helper", {"helper.py": "h = 1\n"})
    message, pending = reject_file(tmp_path, "helper.py")
    assert pending is not None and pending.reject == "helper.py" and "deletes" in message
    assert (tmp_path / "helper.py").read_text() == "h = 1\n"  # asking changed nothing
    message, pending = reject_file(tmp_path, "helper.py", pending)
    assert pending is None and "removed" in message and not (tmp_path / "helper.py").exists()


def test_undo_with_a_same_lines_conflict_says_so_and_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    run_id = run(tmp_path, "x to 2", {"a.py": "x = 2\n"})
    (tmp_path / "a.py").write_text("x = 5  # mine\n")
    message, pending = undo_run(tmp_path, run_id, None)
    assert pending is None and message.startswith("**Not undone.**") and "a.py (line 1)" in message
    assert (tmp_path / "a.py").read_text() == "x = 5  # mine\n"


def test_redo_names_the_redone_run_and_each_run_shows_its_own_diff(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    first = run(tmp_path, "x to 2", {"a.py": "x = 2\n"})
    second = run(tmp_path, "add b", {"b.py": "b = 1\n"})
    assert "x = 2" in run_diff(tmp_path, first) and "b = 1" not in run_diff(tmp_path, first)
    assert "b = 1" in run_diff(tmp_path, second)
    undo_run(tmp_path, first, None)
    assert "(undone)" in run_diff(tmp_path, first)
    message, redone = redo_run(tmp_path, second)  # `second` is not undone: the undone one comes back
    assert redone == first and message.startswith("Redid") and (tmp_path / "a.py").read_text() == "x = 2\n"
