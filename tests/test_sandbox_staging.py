"""The sandbox's staging copy: what is applied back to the workspace after a run, what is refused,
and who the program runs as. The hostile battery is in test_sandbox_hostile.py."""

from __future__ import annotations

import os
import stat
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from tests.test_sandbox import EXPECT_NAMESPACES
from tools.sandbox import SANDBOX_ID, RunLimits, run_python, sandbox_capabilities
from tools.sandbox._launcher import seccomp_program

IS_LINUX = sys.platform.startswith("linux")
linux_only = pytest.mark.skipif(not IS_LINUX, reason="Linux mechanisms")


def staged() -> bool:
    caps = sandbox_capabilities()
    if not caps.staging:
        # Only where the OS gives no mount namespace (no root, user namespaces off): then the
        # program writes the workspace directly, and the capabilities say so.
        assert not EXPECT_NAMESPACES, f"staging should hold here: {caps.notes}"
        assert any("writes the workspace directly" in note for note in caps.notes)
    return caps.staging


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root


def program(ws: Path, code: str, name: str = "p.py") -> str:
    (ws / name).write_text(textwrap.dedent(code))
    return name


@linux_only
def test_changes_deletions_and_new_folders_are_applied(ws: Path) -> None:
    (ws / "keep.txt").write_text("old\n")
    (ws / "gone.txt").write_text("bye\n")
    (ws / "secret.env").write_text("A=1\n")
    (ws / "secret.env").chmod(0o600)
    rel = program(
        ws,
        """
        import os
        open('keep.txt', 'w').write('new\\n')
        os.remove('gone.txt')
        open('secret.env', 'a').write('B=2\\n')
        os.makedirs('out/deep')
        open('out/deep/r.txt', 'w').write('result')
        open('run.sh', 'w').write('#!/bin/sh\\n'); os.chmod('run.sh', 0o755)
        os.makedirs('empty')
        """,
    )
    result = run_python(ws, rel)
    assert result.exit_code == 0, result.stderr_tail
    assert (ws / "keep.txt").read_text() == "new\n"
    assert not (ws / "gone.txt").exists()
    assert (ws / "secret.env").read_text() == "A=1\nB=2\n"
    assert stat.S_IMODE((ws / "secret.env").stat().st_mode) == 0o600  # the file keeps its mode
    assert (ws / "out/deep/r.txt").read_text() == "result"
    assert os.access(ws / "run.sh", os.X_OK) and (ws / "empty").is_dir()
    assert (ws / "keep.txt").stat().st_uid == os.getuid()
    if staged():
        assert set(result.applied) == {"keep.txt", "secret.env", "out/deep/r.txt", "run.sh"}
        assert result.deleted == ("gone.txt",) and result.refused == ()


@linux_only
def test_links_fifos_and_git_are_refused_and_reported(ws: Path) -> None:
    (ws / "data.txt").write_text("data\n")
    rel = program(
        ws,
        """
        import os
        os.symlink('/etc/passwd', 'link')
        os.mkfifo('pipe')
        os.link('data.txt', 'twin.txt')
        os.makedirs('.git/hooks'); open('.git/config', 'w').write('[core]\\n')
        os.makedirs('lib/.GIT'); open('lib/.GIT/HEAD', 'w').write('x')
        open('fine.txt', 'w').write('ok')
        """,
    )
    result = run_python(ws, rel)
    assert result.exit_code == 0, result.stderr_tail
    if not staged():
        pytest.skip("no staging here")
    reasons = dict(item.split(": ", 1) for item in result.refused)
    assert reasons["link"] == "a symlink" and reasons["pipe"] == "a FIFO"
    assert reasons["twin.txt"] == "a hard link" and reasons["data.txt"] == "a hard link"
    assert ".git" in reasons and "lib/.GIT" in reasons
    for name in ("link", "pipe", "twin.txt", ".git", "lib/.GIT"):
        assert not os.path.lexists(ws / name)
    assert (ws / "data.txt").read_text() == "data\n" and (ws / "fine.txt").read_text() == "ok"
    assert "change(s) not applied" in result.summary()


@linux_only
def test_the_budget_of_files_and_bytes_holds(ws: Path) -> None:
    rel = program(
        ws,
        """
        made = 0
        try:
            with open('big', 'wb') as fh:
                fh.write(b'x' * (4 << 20))
        except OSError as exc:
            print('big:', exc.strerror)
        try:
            for n in range(100):
                open(f'f{n:02}', 'w').write('x')
                made += 1
        except OSError as exc:
            print('files:', exc.strerror)
        print('made', made)
        """,
    )
    result = run_python(ws, rel, limits=RunLimits(max_files=10, write_mb=2))
    if not staged():
        pytest.skip("no staging here")
    assert "big: No space left on device" in result.stdout_tail  # 2 MB, and 1 MB for its home
    assert "files: No space left on device" in result.stdout_tail  # and 10 files, a few more inside
    assert int(result.stdout_tail.split("made ")[1]) < 30
    written = [p for p in ws.iterdir() if p.name.startswith("f")]
    assert len(written) <= 10 and len(result.applied) <= 10
    assert any("over the run's budget" in item for item in result.refused)


@linux_only
def test_a_file_the_user_changed_during_the_run_is_not_overwritten(ws: Path) -> None:
    (ws / "notes.txt").write_text("before\n")
    rel = program(ws, "import time\ntime.sleep(1.0)\nopen('notes.txt', 'w').write('program\\n')\n")
    done: dict = {}
    worker = threading.Thread(target=lambda: done.update(result=run_python(ws, rel)))
    worker.start()
    time.sleep(0.5)
    (ws / "notes.txt").write_text("the user's edit\n")
    worker.join(30)
    result = done["result"]
    if not staged():
        pytest.skip("no staging here")
    assert (ws / "notes.txt").read_text() == "the user's edit\n"
    assert "notes.txt: changed in the workspace during the run" in result.refused


@linux_only
def test_a_workspace_over_the_staging_budget_is_refused_plainly(ws: Path) -> None:
    (ws / "data.bin").write_bytes(b"x" * (2 << 20))
    rel = program(ws, "print('ran')\n")
    result = run_python(ws, rel, limits=RunLimits(stage_mb=1))
    if not staged():
        pytest.skip("no staging here")
    assert result.exit_code == 126 and "ran" not in result.stdout_tail
    assert "larger than the staging budget" in result.stderr_tail


@linux_only
def test_environments_are_bound_read_only_not_copied(ws: Path) -> None:
    (ws / ".venv" / "lib").mkdir(parents=True)
    (ws / ".venv" / "lib" / "pkg.py").write_text("VALUE = 7\n")
    rel = program(
        ws,
        """
        import sys
        sys.path.insert(0, '.venv/lib')
        import pkg
        print('read', pkg.VALUE)
        try:
            open('.venv/lib/evil.py', 'w').write('x')
        except OSError as exc:
            print('write', type(exc).__name__)
        """,
    )
    result = run_python(ws, rel)
    assert "read 7" in result.stdout_tail
    if staged():
        assert "write OSError" in result.stdout_tail or "write PermissionError" in result.stdout_tail
        assert not (ws / ".venv" / "lib" / "evil.py").exists()


@linux_only
def test_the_program_has_no_privilege_and_sees_the_usual_paths(ws: Path) -> None:
    rel = program(
        ws,
        """
        import os
        status = dict(line.split(':', 1) for line in open('/proc/self/status'))
        for key in ('CapEff', 'CapPrm', 'CapBnd', 'NoNewPrivs', 'Seccomp'):
            print(key, status[key].strip())
        print('uid', os.getuid(), os.geteuid())
        print('cwd', os.getcwd())
        """,
    )
    result = run_python(ws, rel)
    said = dict(line.split(" ", 1) for line in result.stdout_tail.splitlines())
    assert said["cwd"] == str(ws)  # tracebacks name the workspace's own paths
    caps = sandbox_capabilities()
    if not caps.seccomp:
        # The filter is written for x86_64 and aarch64 only, and needs a namespace to start in.
        import platform

        assert not (EXPECT_NAMESPACES and platform.machine() in ("x86_64", "aarch64")), caps.notes
        pytest.skip(f"no seccomp filter for this machine: {caps.notes}")
    assert said["CapEff"] == said["CapPrm"] == said["CapBnd"] == "0000000000000000"
    assert said["NoNewPrivs"] == "1" and said["Seccomp"] == "2"
    if os.geteuid() == 0:
        assert said["uid"] == f"{SANDBOX_ID} {SANDBOX_ID}"


@linux_only
def test_capabilities_say_what_holds_for_this_user() -> None:
    caps = sandbox_capabilities()
    assert caps.running_as_root == (os.geteuid() == 0)
    text = caps.describe()
    if caps.staging:
        assert "writes staged" in text
    if caps.seccomp:
        assert "seccomp" in text
    if caps.memory_scope == "per-process":
        assert any("per process" in note for note in caps.notes)
    if os.geteuid() == 0 and caps.user_namespace:
        assert caps.program_uid == SANDBOX_ID and f"uid {SANDBOX_ID}" in text
        assert caps.memory_scope == "cgroup" or any("memory" in note for note in caps.notes)


def test_the_seccomp_filter_checks_the_architecture_first() -> None:
    code = seccomp_program("x86_64")
    assert code is not None and len(code) % 8 == 0
    # load arch; if not x86_64, kill the process
    assert code[:8] == bytes.fromhex("2000 00 00 04000000")
    assert code[8:16] == bytes.fromhex("1500 01 00 3e0000c0")
    assert code[16:24] == bytes.fromhex("0600 00 00 00000080")
    assert seccomp_program("aarch64") is not None and seccomp_program("sparc") is None
