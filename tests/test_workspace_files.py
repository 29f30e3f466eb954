"""Confinement and atomic writes of tools.workspace_files, against a real temp directory."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tools.confined_fs as cfs
from tools.workspace_files import DIFF_LIMIT_BYTES, WorkspaceError, WorkspaceFiles, unified_diff


@pytest.fixture(autouse=True, params=["openat2", "openat", "paths"])
def mechanism(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test runs with each confinement: openat2, per-component openat (older kernels, macOS),
    and the lstat/realpath checks kept for Windows, so the fallbacks keep the same behaviour."""
    if request.param == "openat2" and cfs._openat2 is None:
        pytest.skip("no openat2 on this kernel")
    if request.param != "openat2":
        monkeypatch.setattr(cfs, "_openat2", None)
    if request.param == "paths":
        monkeypatch.setattr(cfs, "USE_DIR_FD", False)
    return request.param


@pytest.fixture
def ws(tmp_path: Path) -> WorkspaceFiles:
    root = tmp_path / "ws"
    root.mkdir()
    return WorkspaceFiles(root)


@pytest.mark.parametrize(
    ("rel", "reason"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("a\x00b", "NUL"),
        ("/etc/passwd", "absolute"),
        ("C:\\Windows\\win.ini", "absolute"),
        ("c:foo", "absolute"),
        ("\\\\server\\share\\x", "absolute"),
        ("\\x", "absolute"),
        ("..", ".."),
        ("../outside.txt", ".."),
        ("a/../../outside.txt", ".."),
        ("a\\..\\..\\outside.txt", ".."),
    ],
)
def test_resolve_refuses_bad_paths_with_reason(ws: WorkspaceFiles, rel: str, reason: str) -> None:
    with pytest.raises(WorkspaceError, match=reason):
        ws.resolve(rel)


def test_resolve_allows_inner_dotdot_and_backslashes(ws: WorkspaceFiles) -> None:
    assert ws.resolve("a/../b.txt") == ws.root / "b.txt"
    assert ws.resolve("src\\pkg\\m.py") == ws.root / "src" / "pkg" / "m.py"
    assert ws.resolve(".") == ws.root


def test_symlink_out_of_workspace_refused_even_mid_path(ws: WorkspaceFiles, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("s")
    os.symlink(outside, ws.root / "link")
    (ws.root / "inner").mkdir()
    os.symlink(outside / "secret.txt", ws.root / "inner" / "leaf")
    with pytest.raises(WorkspaceError, match="symlink 'link'"):
        ws.read_text("link/secret.txt")
    with pytest.raises(WorkspaceError, match="outside"):
        ws.write_text("link/new.txt", "x")
    with pytest.raises(WorkspaceError, match="symlink 'inner/leaf'"):
        ws.read_text("inner/leaf")
    assert not (outside / "new.txt").exists()


def test_symlink_chain_that_leaves_and_comes_back_is_refused(ws: WorkspaceFiles, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (ws.root / "real").mkdir()
    os.symlink(ws.root / "real", outside / "back")  # outside -> inside
    os.symlink(outside, ws.root / "out")  # inside -> outside
    with pytest.raises(WorkspaceError, match="symlink 'out'"):
        ws.resolve("out/back/x.txt")


def test_symlink_inside_workspace_is_followed(ws: WorkspaceFiles) -> None:
    (ws.root / "real").mkdir()
    (ws.root / "real" / "f.txt").write_text("hello")
    os.symlink(ws.root / "real", ws.root / "alias")
    assert ws.read_text("alias/f.txt") == "hello"
    ws.delete("alias")  # removes the link, not the directory it points to
    assert not os.path.lexists(ws.root / "alias")
    assert (ws.root / "real" / "f.txt").read_text() == "hello"


def test_fifo_and_socket_refused(ws: WorkspaceFiles) -> None:
    os.mkfifo(ws.root / "pipe")
    with pytest.raises(WorkspaceError, match="not a regular file"):
        ws.read_text("pipe")  # must not hang waiting for a writer
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(ws.root / "sock"))
        with pytest.raises(WorkspaceError, match="not a regular file"):
            ws.write_text("sock", "x")
    finally:
        sock.close()


def test_device_file_via_inside_symlink_refused(ws: WorkspaceFiles) -> None:
    os.symlink("/dev/null", ws.root / "null")
    with pytest.raises(WorkspaceError, match="outside"):
        ws.read_text("null")


def test_write_into_git_or_localcrew_refused(ws: WorkspaceFiles) -> None:
    (ws.root / ".git").mkdir()
    (ws.root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    for rel in [".git/HEAD", ".git/hooks/pre-commit", ".localcrew/x", "sub/.GIT/config"]:
        with pytest.raises(WorkspaceError, match="protected"):
            ws.write_text(rel, "evil")
    with pytest.raises(WorkspaceError, match="protected"):
        ws.delete(".git/HEAD")
    assert (ws.root / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n"
    assert ws.read_text(".git/HEAD").startswith("ref:")  # reading is fine


def test_write_creates_then_modifies_with_old_content(ws: WorkspaceFiles) -> None:
    first = ws.write_text("pkg/sub/mod.py", "x = 1\n")
    assert first.created and first.action == "created"
    assert first.old_content is None
    assert first.rel == "pkg/sub/mod.py"
    assert first.bytes_written == len(b"x = 1\n")
    second = ws.write_text("pkg/sub/mod.py", "x = 2\n")
    assert not second.created
    assert second.old_content == "x = 1\n"
    assert (ws.root / "pkg/sub/mod.py").read_text() == "x = 2\n"
    assert "-x = 1\n+x = 2\n" in second.diff()
    assert second.action == "modified"
    assert [p.name for p in (ws.root / "pkg/sub").iterdir()] == ["mod.py"]  # no temp left
    # The same bytes again: said as such, not "modified" (issue 58's log said "modified (690 bytes)").
    assert ws.write_text("pkg/sub/mod.py", "x = 2\n").action == "unchanged"


def test_an_overlong_name_or_a_symlink_loop_is_a_workspace_error(ws: WorkspaceFiles) -> None:
    os.symlink("loop_b", ws.root / "loop_a")
    os.symlink("loop_a", ws.root / "loop_b")
    for rel in ("x" * 300 + ".py", "loop_a/file.py", "loop_a"):
        with pytest.raises(WorkspaceError):
            ws.write_text(rel, "x = 1\n")
        with pytest.raises(WorkspaceError):
            ws.read_text(rel)


def test_replacing_a_huge_file_is_not_read_back_for_its_diff(ws: WorkspaceFiles) -> None:
    big = "0123456789\n" * (DIFF_LIMIT_BYTES // 11 * 4)  # four times the limit
    (ws.root / "data.txt").write_text(big)
    result = ws.write_text("data.txt", "small\n")
    assert not result.created and result.action == "modified" and result.old_content is None
    assert (ws.root / "data.txt").read_text() == "small\n"
    assert len(result.diff()) < 200 and f"{len(big):,} bytes replaced by 6" in result.diff()
    at_limit = ws.write_text("data.txt", "x\n" * 10)  # a small file still gets its real diff
    assert "-small\n" in at_limit.diff()


def test_write_counts_utf8_bytes_and_keeps_mode(ws: WorkspaceFiles) -> None:
    script = ws.root / "run.sh"
    script.write_text("old")
    script.chmod(0o750)
    result = ws.write_text("run.sh", "héllo")
    assert result.bytes_written == 6
    assert stat.S_IMODE(script.stat().st_mode) == 0o750
    new = ws.write_text("new.txt", "n")
    mode = stat.S_IMODE(new.path.stat().st_mode)
    assert mode & 0o644 == 0o644  # not mkstemp's private 0600


def test_write_is_atomic_for_concurrent_readers(ws: WorkspaceFiles) -> None:
    # A reader process polls the file while we rewrite it; it must only ever see whole versions.
    big_a, big_b = "a" * 300_000, "b" * 300_000
    ws.write_text("big.txt", big_a)
    reader = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys,time\n"
            "p=sys.argv[1]; bad=0; end=time.time()+1.0\n"
            "while time.time()<end:\n"
            "    d=open(p).read()\n"
            "    bad += not (d in (sys.argv[2]*300000, sys.argv[3]*300000))\n"
            "print(bad)",
            str(ws.root / "big.txt"),
            "a",
            "b",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    for i in range(40):
        ws.write_text("big.txt", big_b if i % 2 else big_a)
    out, _ = reader.communicate(timeout=10)
    assert out.strip() == "0"


def test_write_parent_is_a_file(ws: WorkspaceFiles) -> None:
    ws.write_text("f", "x")
    with pytest.raises(WorkspaceError, match="'f' is a file"):
        ws.write_text("f/child.txt", "y")
    with pytest.raises(WorkspaceError, match="directory"):
        ws.write_text(".", "y")


def test_read_text_errors(ws: WorkspaceFiles) -> None:
    (ws.root / "bin.dat").write_bytes(b"\x89PNG\x00\x01")
    (ws.root / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    (ws.root / "big.txt").write_text("x" * 101)
    (ws.root / "d").mkdir()
    with pytest.raises(WorkspaceError, match="binary"):
        ws.read_text("bin.dat")
    with pytest.raises(WorkspaceError, match="UTF-8"):
        ws.read_text("latin1.txt")
    with pytest.raises(WorkspaceError, match="101 bytes is over the 100"):
        ws.read_text("big.txt", max_bytes=100)
    with pytest.raises(WorkspaceError, match="does not exist"):
        ws.read_text("missing.txt")
    with pytest.raises(WorkspaceError, match="directory"):
        ws.read_text("d")
    assert ws.read_text("big.txt", max_bytes=101) == "x" * 101


def test_list_files_skips_tool_dirs_and_caps(ws: WorkspaceFiles, tmp_path: Path) -> None:
    for rel in ["b.py", "a/x.py", "a/b/y.txt", ".hidden"]:
        ws.write_text(rel, "1")
    for skipped in [".git", ".localcrew", ".venv", "venv", "node_modules", "a/__pycache__"]:
        (ws.root / skipped).mkdir(parents=True)
        (ws.root / skipped / "junk.py").write_text("j")
    os.mkfifo(ws.root / "fifo")
    os.symlink(tmp_path, ws.root / "loop_out")  # outside: not listed, not followed
    os.symlink(ws.root / "b.py", ws.root / "b_link.py")  # inside file link: listed
    assert ws.list_files() == [".hidden", "a/b/y.txt", "a/x.py", "b.py", "b_link.py"]
    assert ws.list_files("a") == ["a/b/y.txt", "a/x.py"]
    assert len(ws.list_files(max_entries=2)) == 2


def test_delete_file_dir_and_errors(ws: WorkspaceFiles) -> None:
    seen: list[Path] = []
    ws_hooked = WorkspaceFiles(ws.root, before_write=seen.append)
    ws_hooked.write_text("d/f.txt", "x")
    with pytest.raises(WorkspaceError, match="not empty"):
        ws_hooked.delete("d")
    ws_hooked.delete("d/f.txt")
    ws_hooked.delete("d")
    assert not (ws.root / "d").exists()
    assert seen == [ws.root / "d/f.txt", ws.root / "d/f.txt", ws.root / "d"]
    with pytest.raises(WorkspaceError, match="does not exist"):
        ws.delete("d")
    with pytest.raises(WorkspaceError, match="root"):
        ws.delete(".")


def test_hook_runs_before_the_write_and_can_veto(ws: WorkspaceFiles) -> None:
    states: list[bool] = []

    def hook(path: Path) -> None:
        states.append(path.exists())
        if path.name == "veto.txt":
            raise RuntimeError("no")

    hooked = WorkspaceFiles(ws.root, before_write=hook)
    hooked.write_text("ok.txt", "1")
    with pytest.raises(RuntimeError):
        hooked.write_text("veto.txt", "1")
    assert states == [False, False]
    assert not (ws.root / "veto.txt").exists()


def test_lstat_follows_only_inside_links(ws: WorkspaceFiles, tmp_path: Path) -> None:
    (ws.root / "real.txt").write_text("abc")
    os.symlink("real.txt", ws.root / "alias.txt")
    os.symlink(tmp_path, ws.root / "out")
    assert ws.lstat("alias.txt").st_size == 3
    with pytest.raises(WorkspaceError, match="outside"):
        ws.lstat("out/anything")
    with pytest.raises(FileNotFoundError):
        ws.lstat("missing.txt")


def test_unified_diff_shapes() -> None:
    created = unified_diff("a.txt", None, "one\n")
    assert created.startswith("--- /dev/null\n+++ b/a.txt\n")
    assert "+one\n" in created
    deleted = unified_diff("a.txt", "one\n", None)
    assert "+++ /dev/null" in deleted and "-one\n" in deleted
    assert unified_diff("a.txt", "same\n", "same\n") == ""
    assert "\\ No newline at end of file" in unified_diff("a.txt", "x", "y")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["..", ".", "a", "b", "", "/", "\\", "C:", "x\x00"]), max_size=8))
def test_resolve_never_escapes(tmp_path_factory: pytest.TempPathFactory, parts: list[str]) -> None:
    root = tmp_path_factory.getbasetemp() / "prop_ws"
    root.mkdir(exist_ok=True)
    files = WorkspaceFiles(root)
    rel = "/".join(parts)
    try:
        resolved = files.resolve(rel)
    except WorkspaceError:
        return
    assert resolved == files.root or files.root in resolved.parents
