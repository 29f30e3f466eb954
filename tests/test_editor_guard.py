"""The editor after the crew changed its file: new text when nothing is unsaved, else the user's
text stays and Save still refuses to overwrite the changed file."""

from __future__ import annotations

from pathlib import Path

from gui.editor_guard import after_disk_change, is_dirty
from gui.workspace_actions import open_file, save_file


def test_unchanged_on_disk_leaves_the_editor_alone(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("a = 1\n")
    text, _, opened = open_file(tmp_path, "a.py")
    assert after_disk_change(tmp_path, text, text, opened).text is None
    assert after_disk_change(tmp_path, "", "", None).text is None  # nothing open


def test_a_file_the_crew_changed_reloads_when_the_user_has_no_unsaved_edits(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("a = 1\n")
    text, _, opened = open_file(tmp_path, "a.py")
    (tmp_path / "a.py").write_text("a = 1\nb = 2\n")
    change = after_disk_change(tmp_path, text, text, opened)
    assert change.text == "a = 1\nb = 2\n" and "Reloaded" in change.message
    assert change.opened is not None
    saved, _ = save_file(tmp_path, "a.py", change.text + "c = 3\n", change.opened)  # Save works again
    assert saved.startswith("Saved")


def test_unsaved_edits_stay_and_the_crews_file_is_not_overwritten(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("a = 1\n")
    text, _, opened = open_file(tmp_path, "a.py")
    (tmp_path / "a.py").write_text("crew = True\n")
    change = after_disk_change(tmp_path, text + "mine = 1\n", text, opened)
    assert change.text is None and "changed on disk" in change.message
    message, _ = save_file(tmp_path, "a.py", text + "mine = 1\n", change.opened)
    assert message.startswith("Not saved") and (tmp_path / "a.py").read_text() == "crew = True\n"


def test_a_read_only_view_is_never_dirty(tmp_path: Path) -> None:
    (tmp_path / "b.bin").write_bytes(b"\xff\xfe\x00" * 10)
    _, _, opened = open_file(tmp_path, "b.bin")
    assert not opened.editable and not is_dirty("x", "", opened)
    assert is_dirty("typed", "", None)  # a new file typed into an empty editor is work to keep
