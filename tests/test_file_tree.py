"""The Files tab's tree lists the user's files and folders, not the folders tools own (pytest's
caches, bytecode, virtual environments, VCS data), which no snapshot covers and Undo cannot restore."""

from pathlib import Path

from gui.file_tree import tree_entries


def test_the_tree_shows_the_project_and_not_the_folders_tools_own(tmp_path: Path) -> None:
    for folder in (".pytest_cache", ".benchmarks", "__pycache__", ".venv", ".git", "src", ".config"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.py").write_text("x = 1\n")
    (tmp_path / "main.py").write_text("print(1)\n")
    names = [entry["name"] for entry in tree_entries(str(tmp_path), [], "**/*", None)]
    assert names == [".config", "src", "main.py"]
    assert [e["name"] for e in tree_entries(str(tmp_path), ["src"], "**/*", None)] == ["x.py"]
