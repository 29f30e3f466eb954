"""What a program can leave in the workspace (links, fifos, hard links, a folder swapped for a
link mid-operation) must never make the IDE read, list or write outside it. Real files, no mocks;
each test runs with every confinement this machine can do (openat2, per-component openat, and the
path checks kept for Windows)."""

from __future__ import annotations

import ctypes
import os
import sys
import threading
import time
from pathlib import Path

import pytest

import tools.confined_fs as cfs
from gui.file_tree import tree_entries
from gui.workspace_actions import open_file
from tools.code_index.scan import SKIP_HARDLINK, read_text_file, scan_workspace
from tools.confined_fs import ConfinedRoot, WorkspaceError
from tools.run_snapshot import RunSnapshots
from tools.workspace_files import WorkspaceFiles

pytestmark = pytest.mark.skipif(os.name != "posix", reason="symlinks, fifos and hard links as on POSIX")

SECRET = "OUTSIDE-SECRET-do-not-show"
MECHANISMS = ["openat2", "openat", "paths"]


@pytest.fixture(params=MECHANISMS)
def mechanism(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Pick the confinement: openat2 as found, per-component openat, or the Windows path checks."""
    if request.param == "openat2" and cfs._openat2 is None:
        pytest.skip("no openat2 on this kernel")
    if request.param in ("openat", "paths"):
        monkeypatch.setattr(cfs, "_openat2", None)
    if request.param == "paths":
        monkeypatch.setattr(cfs, "USE_DIR_FD", False)
    return request.param


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    (home / "secret.txt").write_text(SECRET)
    (home / ".bashrc").write_text(SECRET)
    return home


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root


def _run_that_wrote(ws: Path, rel: str) -> RunSnapshots:
    snaps = RunSnapshots(ws)
    files = WorkspaceFiles(ws, before_write=snaps.record_write)
    run_id = snaps.begin_run("write")
    files.write_text(rel, "written by the crew\n")
    snaps.end_run(run_id)
    return snaps


def test_diff_of_a_file_swapped_for_a_symlink_shows_a_refusal(
    ws: Path, outside: Path, mechanism: str
) -> None:
    snaps = _run_that_wrote(ws, "out.txt")
    (ws / "out.txt").unlink()
    os.symlink(outside / "secret.txt", ws / "out.txt")
    _, diff = snaps.last_run_diff()
    assert SECRET not in diff
    assert "not shown" in diff and "symbolic link" in diff
    # /proc/self/environ (the IDE's own environment) is refused the same way.
    (ws / "out.txt").unlink()
    os.symlink("/proc/self/environ", ws / "out.txt")
    _, diff = snaps.last_run_diff()
    assert "not shown" in diff and "PATH=" not in diff


def test_diff_of_a_file_swapped_for_a_fifo_returns_at_once(ws: Path, mechanism: str) -> None:
    snaps = _run_that_wrote(ws, "out.txt")
    (ws / "out.txt").unlink()
    os.mkfifo(ws / "out.txt")
    box: list[str] = []
    thread = threading.Thread(target=lambda: box.append(snaps.last_run_diff()[1]), daemon=True)
    started = time.monotonic()
    thread.start()
    thread.join(timeout=5)
    assert not thread.is_alive(), "the diff blocked on a fifo"
    assert time.monotonic() - started < 5
    assert "not shown" in box[0] and "not a regular file" in box[0]


def test_hard_link_to_an_outside_file_is_not_read(ws: Path, outside: Path, mechanism: str) -> None:
    os.link(outside / "secret.txt", ws / "linked.txt")
    files = WorkspaceFiles(ws)
    with pytest.raises(WorkspaceError, match="hard links"):
        files.read_text("linked.txt")
    text, message, opened = open_file(ws, "linked.txt")  # the editor
    assert text == "" and SECRET not in message and not opened.editable
    snaps = _run_that_wrote(ws, "w.txt")
    (ws / "w.txt").unlink()
    os.link(outside / "secret.txt", ws / "w.txt")
    assert SECRET not in snaps.last_run_diff()[1]
    assert SKIP_HARDLINK in scan_workspace(ws).skipped  # the code index
    with pytest.raises(OSError, match="hard links"):
        read_text_file(ws / "linked.txt")
    # Writing over it replaces the name only: the outside file is untouched, its text not shown.
    result = files.write_text("linked.txt", "new\n")
    assert (outside / "secret.txt").read_text() == SECRET and result.old_content is None


def test_a_symlinked_home_is_not_listed(ws: Path, outside: Path, mechanism: str) -> None:
    (ws / "src").mkdir()
    (ws / "src" / "app.py").write_text("x = 1\n")
    os.symlink(outside, ws / "home")
    os.symlink(outside, ws / "src" / "deep_home")
    os.symlink("app.py", ws / "src" / "alias.py")  # an inside file link: readable, so listed
    files = WorkspaceFiles(ws)
    assert files.list_files() == ["src/alias.py", "src/app.py"]
    with pytest.raises(WorkspaceError):
        files.list_files("home")
    root = str(ws)
    top = tree_entries(root, [], "**/*", None)
    assert [e["name"] for e in top] == ["src"]
    assert [e["name"] for e in tree_entries(root, ["src"], "**/*", None)] == ["alias.py", "app.py"]
    for asked in (["home"], ["src", "deep_home"], [".."], ["src", "..", "..", "home"], ["/etc"]):
        assert tree_entries(root, asked, "**/*", None) == []
    assert "home" not in str(scan_workspace(ws).files)


def test_links_inside_are_followed_and_links_out_refused(ws: Path, outside: Path, mechanism: str) -> None:
    (ws / "real").mkdir()
    (ws / "real" / "f.txt").write_text("inside")
    os.symlink("real", ws / "rel_alias")
    os.symlink(ws / "real", ws / "abs_alias")
    os.symlink("../../ws/real/f.txt", ws / "real" / "climb.txt")  # leaves and comes back lexically
    os.symlink("../../home/secret.txt", ws / "real" / "up.txt")
    files = WorkspaceFiles(ws)
    assert files.read_text("rel_alias/f.txt") == "inside"
    assert files.read_text("abs_alias/f.txt") == "inside"
    with pytest.raises(WorkspaceError, match="outside"):
        files.read_text("real/climb.txt")  # '..' above the root, even to come back: refused
    with pytest.raises(WorkspaceError, match="outside"):
        files.read_text("rel_alias/up.txt")
    with pytest.raises(WorkspaceError, match="outside"):
        files.write_text("real/up.txt", "x")
    assert (outside / "secret.txt").read_text() == SECRET
    files.write_text("rel_alias/new.txt", "n")  # written through the inside link
    assert (ws / "real" / "new.txt").read_text() == "n"


def test_devices_and_magic_links_are_refused(ws: Path, mechanism: str) -> None:
    fs = ConfinedRoot(ws)
    os.symlink("/proc/self/root", ws / "magic")
    with pytest.raises(WorkspaceError):
        fs.read_bytes(["magic", "etc", "passwd"], 100)
    with pytest.raises(WorkspaceError):
        fs.read_bytes(["magic", "etc", "passwd"], 100, follow=False)


def _exchange(a: Path, b: Path) -> None:
    """Swap two names atomically (renameat2 RENAME_EXCHANGE), so the folder is never missing."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.renameat2(-100, os.fsencode(a), -100, os.fsencode(b), 2) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux only")
@pytest.mark.parametrize("kind", ["openat2", "openat"])
def test_race_a_folder_swapped_for_a_symlink_never_lets_a_read_or_write_out(
    ws: Path, outside: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if kind == "openat2" and cfs._openat2 is None:
        pytest.skip("no openat2 on this kernel")
    if kind == "openat":
        monkeypatch.setattr(cfs, "_openat2", None)
    (outside / "f.txt").write_text(SECRET)
    before = {p.name: p.read_bytes() for p in outside.iterdir()}
    (ws / "sub").mkdir()
    (ws / "sub" / "f.txt").write_text("inside")
    os.symlink(outside, ws / "swap")  # `sub` and `swap` trade places all the time
    stop = threading.Event()
    swaps = 0

    def swapper() -> None:
        nonlocal swaps
        while not stop.is_set():
            _exchange(ws / "sub", ws / "swap")
            swaps += 1

    files = WorkspaceFiles(ws)
    thread = threading.Thread(target=swapper, daemon=True)
    thread.start()
    outside_reads = refused = 0
    try:
        for i in range(1000):
            try:
                files.write_text("sub/f.txt", f"inside {i}")
            except WorkspaceError:
                refused += 1
            try:
                outside_reads += SECRET in files.read_text("sub/f.txt")
            except WorkspaceError:
                refused += 1
    finally:
        stop.set()
        thread.join()
    after = {p.name: p.read_bytes() for p in outside.iterdir()}
    assert outside_reads == 0
    assert after == before, "a write landed outside the workspace"
    assert swaps > 100 and refused > 0  # the race really ran, and some operations met the link


def test_a_fifo_gitignore_or_info_exclude_does_not_hang_the_index_scan(ws: Path, mechanism: str) -> None:
    (ws / "a.py").write_text("x = 1\n")
    os.mkfifo(ws / ".gitignore")
    (ws / ".git" / "info").mkdir(parents=True)
    os.mkfifo(ws / ".git" / "info" / "exclude")
    box: list[list[str]] = []
    thread = threading.Thread(
        target=lambda: box.append([f.path for f in scan_workspace(ws).files]), daemon=True
    )
    thread.start()
    thread.join(timeout=5)
    assert not thread.is_alive(), "the scan blocked on a fifo"
    assert box == [["a.py"]]


def test_the_editor_names_a_tree_selection_without_following_its_links(ws: Path, outside: Path) -> None:
    from gui.workspace_actions import disk_version, relative_in

    os.symlink(outside, ws / "home")
    selected = str(ws / "home" / "secret.txt")  # what a crafted tree selection would send
    assert relative_in(ws, selected) == "home/secret.txt"  # not the outside path it resolves to
    text, message, _ = open_file(ws, relative_in(ws, selected) or "")
    assert text == "" and SECRET not in message and "outside" in message
    assert disk_version(ws, "home/secret.txt") is None  # no stamp of an outside file either


def test_the_tree_hides_git_and_the_ides_own_folder(ws: Path) -> None:
    for folder in (".git", ".localcrew", ".github"):
        (ws / folder).mkdir()
    (ws / "app.py").write_text("x = 1\n")
    assert [e["name"] for e in tree_entries(str(ws), [], "**/*", None)] == [".github", "app.py"]
