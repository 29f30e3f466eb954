"""A workspace cannot be `/`, a home folder itself, a system folder or a read-only folder."""

import errno
import tempfile
from pathlib import Path

import pytest

from tools.workspace_choice import workspace_problem


@pytest.mark.parametrize("folder", ["/", "/etc", "/usr/lib", "/proc", "/home", "/tmp"])
def test_root_and_system_folders_are_refused(folder: str) -> None:
    problem = workspace_problem(folder)
    assert problem is not None and "system folder" in problem


def test_the_home_folder_itself_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert "home folder" in (workspace_problem(tmp_path) or "")
    project = tmp_path / "project"
    project.mkdir()
    assert workspace_problem(project) is None


def test_a_missing_or_read_only_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "not a folder" in (workspace_problem(tmp_path / "nope") or "")

    def read_only(*_args, **_kwargs):
        # What a read-only mount answers (root writes through permission bits, so a chmod would
        # not show it on a machine where the tests run as root).
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "TemporaryFile", read_only)
    assert "not writable (Read-only file system)" in (workspace_problem(tmp_path) or "")
