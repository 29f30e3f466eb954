"""The editor's Save never loses a byte: read-only for what it cannot show, no silent overwrite."""

from pathlib import Path

from gui.workspace_actions import open_file, save_file


def test_a_file_the_editor_cannot_show_opens_read_only_and_save_refuses(tmp_path: Path) -> None:
    big = bytes(range(256)) * 20_000  # 5 MB of binary
    (tmp_path / "data.bin").write_bytes(big)
    content, message, opened = open_file(tmp_path, "data.bin")
    assert content == "" and not opened.editable and "read-only" in message
    text, _ = save_file(tmp_path, "data.bin", content, opened)
    assert text.startswith("Not saved") and (tmp_path / "data.bin").read_bytes() == big


def test_save_under_another_existing_name_overwrites_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("a = 1\n")
    (tmp_path / "b.py").write_text("b = 2\n")
    _, _, opened = open_file(tmp_path, "a.py")
    text, _ = save_file(tmp_path, "b.py", "a = 1\n", opened)
    assert "already exists" in text and (tmp_path / "b.py").read_text() == "b = 2\n"
    text, now = save_file(tmp_path, "c.py", "c = 3\n", opened)  # a new name is fine
    assert text.startswith("Saved `c.py`") and now is not None and now.rel == "c.py"


def test_a_file_changed_on_disk_since_it_was_opened_is_not_overwritten(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("a = 1\n")
    _, _, opened = open_file(tmp_path, "a.py")
    (tmp_path / "a.py").write_text("a = 1\nb = 2  # written by the crew\n")
    text, _ = save_file(tmp_path, "a.py", "a = 1\n", opened)
    assert "changed on disk" in text and "crew" in (tmp_path / "a.py").read_text()


def test_saving_twice_in_a_row_works(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("a = 1\n")
    _, _, opened = open_file(tmp_path, "a.py")
    text, opened = save_file(tmp_path, "a.py", "a = 2\n", opened)
    assert text.startswith("Saved")
    text, _ = save_file(tmp_path, "a.py", "a = 3\n", opened)
    assert text.startswith("Saved") and (tmp_path / "a.py").read_text() == "a = 3\n"


def test_enter_in_the_file_box_opens_that_file_and_never_drops_typing(tmp_path: Path) -> None:
    from types import SimpleNamespace

    import gradio as gr

    from gui.editor_wiring import EditorFiles

    (tmp_path / "a.py").write_text("a = 1\n")
    (tmp_path / "b.py").write_text("b = 2\n")
    files = EditorFiles(SimpleNamespace(workspace=tmp_path))  # type: ignore[arg-type]
    editor, path, message, opened, baseline, *_ = files.open_typed(" b.py ", "", "", None)
    assert path == "b.py" and opened.rel == "b.py" and "Opened" in message
    assert isinstance(editor, gr.Code) and baseline == "b = 2\n"
    # Unsaved typing in a.py: b.py is not opened over it.
    _, _, what = open_file(tmp_path, "a.py")
    refused = files.open_typed("b.py", "a = 1\nmore\n", "a = 1\n", what)
    assert not isinstance(refused[0], gr.Code) and "b.py" in refused[2] and refused[6] == "b.py"
    # A new name is kept for Save; a path outside the workspace is refused; neither touches the editor.
    new = files.open_typed("new.py", "x", "", None)
    assert "Save writes" in new[2] and not isinstance(new[0], gr.Code)
    outside = files.open_typed("../escape.py", "x", "", None)
    assert "Cannot open" in outside[2] and not isinstance(outside[0], gr.Code)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py", "b.py"]
