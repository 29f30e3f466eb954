"""tools.sandbox against real processes: limits, tree kill, isolation, normal runs."""

from __future__ import annotations

import json
import os
import pwd
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tools.sandbox import RunLimits, SandboxCapabilities, run_pytest, run_python, sandbox_capabilities
from tools.workspace_files import WorkspaceError

REPO = Path(__file__).resolve().parents[1]
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux mechanisms")


def write(ws: Path, rel: str, code: str) -> str:
    (ws / rel).parent.mkdir(parents=True, exist_ok=True)
    (ws / rel).write_text(textwrap.dedent(code))
    return rel


def survivors(marker: str, wait_s: float = 1.0) -> list[int]:
    """Pids whose command line carries `marker` (zombies have none), after a short grace."""
    end = time.monotonic() + wait_s
    while True:
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as fh:
                    if marker.encode() in fh.read():
                        found.append(int(entry))
            except OSError:
                continue
        if not found or time.monotonic() > end:
            return found
        time.sleep(0.05)


def userns_available() -> bool:
    try:
        return int(Path("/proc/sys/user/max_user_namespaces").read_text()) > 0
    except OSError:
        return False


def pids_cgroup_writable() -> bool:
    v1 = Path("/sys/fs/cgroup/pids")
    v2 = Path("/sys/fs/cgroup/cgroup.controllers")
    if v1.is_dir():
        return os.access(v1, os.W_OK)
    return v2.exists() and "pids" in v2.read_text().split() and os.access(v2.parent, os.W_OK)


IS_LINUX = sys.platform.startswith("linux")
USER_HOME = Path(pwd.getpwuid(os.getuid()).pw_dir) if IS_LINUX else Path.home()
# What this machine must provide; where it does, a missing mechanism is a failure, not a skip.
EXPECT_NAMESPACES = IS_LINUX and (os.geteuid() == 0 or userns_available())
EXPECT_PROCESS_LIMIT = IS_LINUX and (pids_cgroup_writable() if os.geteuid() == 0 else userns_available())


def require_process_limit() -> None:
    caps = sandbox_capabilities()
    if caps.process_limit is None:
        assert not EXPECT_PROCESS_LIMIT, f"process limit should work here: {caps.notes}"
        pytest.skip(f"no process limit on this machine: {caps.notes}")


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root


@pytest.fixture
def marker() -> str:
    return f"lcmark-{uuid.uuid4().hex}"


def test_normal_run_exit_code_stdout_stderr(ws: Path) -> None:
    rel = write(
        ws,
        "app/main.py",
        """
        import sys
        print("hello", sys.argv[1:])
        print("warning!", file=sys.stderr)
        sys.exit(3)
        """,
    )
    result = run_python(ws, rel, ["a", "b c"])
    assert result.exit_code == 3
    assert result.stdout_tail == "hello ['a', 'b c']\n"
    assert result.stderr_tail == "warning!\n"
    assert result.limit_hit is None
    assert 0 < result.duration_s < 5
    assert result.command[1:] == ["app/main.py", "a", "b c"]
    assert result.summary().endswith(f"exit 3 in {result.duration_s:.2f}s")


def test_program_writes_into_workspace_with_sane_owner(ws: Path) -> None:
    rel = write(
        ws,
        "w.py",
        """
        import os
        os.makedirs("out")
        with open("out/data.txt", "w") as fh:
            fh.write("written")
        """,
    )
    result = run_python(ws, rel)
    assert result.exit_code == 0, result.stderr_tail
    out = ws / "out" / "data.txt"
    assert out.read_text() == "written"
    assert out.stat().st_uid == os.getuid()
    assert not (ws / "__pycache__").exists()


def test_environment_is_clean(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOCALCREW_TEST_API_KEY", "s3cret")
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.invalid:3128")
    rel = write(ws, "env.py", "import json, os\nprint(json.dumps(dict(os.environ)))\n")
    result = run_python(ws, rel)
    env = json.loads(result.stdout_tail)
    assert "s3cret" not in result.stdout_tail
    assert not any("proxy" in key.lower() for key in env)
    assert env["PYTHONDONTWRITEBYTECODE"] == "1"
    assert env["HOME"] != os.environ.get("HOME")
    assert not Path(env["HOME"]).exists()  # the temporary home is removed afterwards
    assert set(env) <= {
        "PATH",
        "HOME",
        "TMPDIR",
        "LANG",
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONUNBUFFERED",
        "PYTHONIOENCODING",
        "LC_CTYPE",
    }


def test_paths_are_confined(ws: Path, tmp_path: Path) -> None:
    (tmp_path / "evil.py").write_text("print('escaped')\n")
    with pytest.raises(WorkspaceError, match=r"\.\."):
        run_python(ws, "../evil.py")
    with pytest.raises(WorkspaceError, match="absolute"):
        run_python(ws, str(tmp_path / "evil.py"))
    with pytest.raises(WorkspaceError, match="does not exist"):
        run_python(ws, "missing.py")
    os.symlink(tmp_path / "evil.py", ws / "link.py")
    with pytest.raises(WorkspaceError, match="outside"):
        run_python(ws, "link.py")
    with pytest.raises(WorkspaceError, match=r"\.\."):
        run_pytest(ws, "..")


@linux_only
def test_time_limit_kills_whole_tree_even_setsid_children(ws: Path, marker: str) -> None:
    rel = write(
        ws,
        "hang.py",
        """
        import subprocess, sys
        # A grandchild that escapes the process group, as a daemon would.
        subprocess.Popen([sys.executable, "-c",
            "import time; open('child_started', 'w').close(); time.sleep(300)", sys.argv[1]],
            start_new_session=True)
        while True:
            pass
        """,
    )
    started = time.monotonic()
    result = run_python(ws, rel, [marker], RunLimits(wall_s=2))
    elapsed = time.monotonic() - started
    assert result.limit_hit == "time"
    assert result.exit_code is None
    assert 2.0 <= result.duration_s < 3.0
    assert elapsed < 4.0
    assert (ws / "child_started").exists()  # the escaping child really ran...
    assert survivors(marker) == []  # ...and is gone


@linux_only
def test_the_users_stop_kills_the_program_and_its_children_before_the_time_limit(
    ws: Path, marker: str
) -> None:
    rel = write(
        ws,
        "wait.py",
        """
        import subprocess, sys, time
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", sys.argv[1]])
        time.sleep(300)
        """,
    )
    stop = threading.Event()
    threading.Timer(2.0, stop.set).start()  # its writes are staged: no file can say it started
    result = run_python(ws, rel, [marker], RunLimits(wall_s=240, stop=stop))
    assert result.limit_hit == "stop" and result.exit_code is None
    assert result.duration_s < 200  # the Stop, not the 240 s limit
    assert "stopped by the user" in result.summary()
    assert survivors(marker) == []


@linux_only
def test_daemon_left_behind_after_normal_exit_is_killed(ws: Path, marker: str) -> None:
    rel = write(
        ws,
        "daemon.py",
        """
        import subprocess, sys, time
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", sys.argv[1]],
                         start_new_session=True, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
        time.sleep(0.3)
        print("parent done")
        """,
    )
    result = run_python(ws, rel, [marker], RunLimits(wall_s=5))
    assert result.exit_code == 0
    assert result.stdout_tail == "parent done\n"
    assert survivors(marker) == []


@linux_only
def test_disk_filler_hits_the_file_size_limit(ws: Path) -> None:
    rel = write(
        ws,
        "filler.py",
        """
        with open("big.bin", "wb") as out:
            while True:
                out.write(b"x" * 1_000_000)
        """,
    )
    result = run_python(ws, rel, limits=RunLimits(wall_s=5, file_mb=2))
    assert result.limit_hit == "file size"
    assert "file size:rlimit-fsize" in result.enforced
    assert (ws / "big.bin").stat().st_size <= 2 * 1024 * 1024
    assert resource.getrlimit(resource.RLIMIT_FSIZE)[0] == resource.RLIM_INFINITY  # parent untouched


@linux_only
def test_memory_bomb_hits_memory_limit_and_parent_is_unaffected(ws: Path) -> None:
    before = resource.getrlimit(resource.RLIMIT_AS)
    rel = write(
        ws,
        "bomb.py",
        """
        hog = []
        while True:
            hog.append(bytearray(20_000_000))
        """,
    )
    result = run_python(ws, rel, limits=RunLimits(wall_s=5, memory_mb=256))
    assert result.limit_hit == "memory"
    assert result.exit_code == 1
    assert "MemoryError" in result.stderr_tail
    assert resource.getrlimit(resource.RLIMIT_AS) == before
    big = bytearray(400_000_000)  # more than the sandbox was allowed
    assert len(big) == 400_000_000


@linux_only
def test_fork_bomb_is_contained(ws: Path, marker: str) -> None:
    require_process_limit()
    rel = write(
        ws,
        "forkbomb.py",
        """
        import os
        while True:
            os.fork()
        """,
    )
    result = run_python(ws, rel, [marker], RunLimits(wall_s=5, max_processes=16))
    assert result.limit_hit == "processes"
    assert result.duration_s < 5
    assert survivors(marker) == []
    ok = subprocess.run([sys.executable, "-c", "print('machine fine')"], capture_output=True)
    assert ok.stdout == b"machine fine\n"


@linux_only
def test_process_limit_counts_only_the_sandbox(ws: Path, marker: str) -> None:
    require_process_limit()
    rel = write(
        ws,
        "count.py",
        """
        import os, sys, time
        n = 0
        while n < 500:
            try:
                pid = os.fork()
            except OSError:
                break
            if pid == 0:
                time.sleep(60)
                os._exit(0)
            n += 1
        print(n, flush=True)
        os.fork()  # fails again, visibly
        """,
    )
    result = run_python(ws, rel, [marker], RunLimits(wall_s=10, max_processes=8))
    assert result.limit_hit == "processes"
    # The program itself plus its children stay within 8 tasks, whatever else runs as us.
    assert 1 <= int(result.stdout_tail) <= 7
    assert survivors(marker) == []


@linux_only
def test_parallel_runs_keep_their_own_limits(ws: Path, marker: str) -> None:
    require_process_limit()
    write(ws, "forkbomb.py", "import os\nwhile True:\n    os.fork()\n")
    write(ws, "fine.py", "print('fine')\n")
    jobs = ["forkbomb.py", "fine.py", "forkbomb.py", "fine.py"]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(
            pool.map(lambda rel: run_python(ws, rel, [marker], RunLimits(wall_s=5, max_processes=8)), jobs)
        )
    for rel, result in zip(jobs, results, strict=True):
        assert any(item.startswith("processes:") for item in result.enforced), rel
        if rel == "fine.py":
            assert (result.exit_code, result.stdout_tail, result.limit_hit) == (0, "fine\n", None)
        else:
            assert result.limit_hit == "processes"
    assert survivors(marker) == []


@linux_only
def test_output_flood_is_cut_and_tails_bounded(ws: Path) -> None:
    rel = write(
        ws,
        "spam.py",
        """
        import sys
        while True:
            print("x" * 1000)
            print("e" * 100, file=sys.stderr)
        """,
    )
    result = run_python(ws, rel, limits=RunLimits(wall_s=5, output_bytes=20_000))
    assert result.limit_hit == "output"
    assert result.exit_code is None
    assert result.duration_s < 2
    assert len(result.stdout_tail) <= 20_000 + 100
    assert len(result.stderr_tail) <= 20_000 + 100
    assert "x" * 1000 in result.stdout_tail


@linux_only
def test_network_is_isolated_and_reported_truthfully(ws: Path) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    rel = write(
        ws,
        "net.py",
        """
        import socket, sys
        try:
            socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2).close()
            print("connected")
        except OSError as exc:
            print("failed", exc)
        # The sandbox's own loopback still works, for programs that test their servers.
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        socket.create_connection(server.getsockname(), timeout=2).close()
        print("own loopback ok")
        """,
    )
    try:
        isolated = run_python(ws, rel, [str(port)], RunLimits(wall_s=5))
        control = run_python(ws, rel, [str(port)], RunLimits(wall_s=5, network=True))
    finally:
        listener.close()
    assert control.stdout_tail.startswith("connected")  # the test's listener is reachable...
    assert control.network_isolated is False
    if not sandbox_capabilities().network_isolation:
        assert isolated.network_isolated is False
        assert not EXPECT_NAMESPACES, "network namespace should work here"
        pytest.skip("no network namespace on this machine")
    assert isolated.stdout_tail.startswith("failed")  # ...but not from inside the sandbox
    assert "own loopback ok" in isolated.stdout_tail
    assert isolated.network_isolated is True


@linux_only
def test_the_program_writes_only_in_the_workspace(ws: Path, tmp_path: Path) -> None:
    """Not elsewhere, not in git's hooks or the undo store; no other program's sockets or processes."""
    (ws / ".git" / "hooks").mkdir(parents=True)
    (ws / ".localcrew").mkdir()
    outside = tmp_path / "outside.txt"
    shm = Path("/dev/shm") / f"localcrew-test-{uuid.uuid4().hex}"
    shm.write_text("host")
    home_secret = USER_HOME / f".localcrew-test-{uuid.uuid4().hex}"  # like ~/.ssh/id_ed25519
    home_secret.write_text("secret")
    host_socket = f"/tmp/localcrew-test-{uuid.uuid4().hex[:12]}.sock"  # like X11's or ssh-agent's
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(host_socket)
    listener.listen()
    rel = write(
        ws,
        "writer.py",
        f"""
        import os, tempfile
        def attempt(path):
            try:
                with open(path, "w") as fh:
                    fh.write("x")
                return "wrote"
            except OSError as exc:
                return type(exc).__name__
        print("workspace", attempt("made_here.txt"))
        os.makedirs("pkg")
        print("subfolder", attempt(os.path.join("pkg", "mod.py")))
        print("tempfile", attempt(os.path.join(tempfile.gettempdir(), "scratch")))
        print("outside", attempt({str(outside)!r}))
        print("hook", attempt(".git/hooks/pre-commit"))
        print("snapshot", attempt(".localcrew/tampered"))
        print("host_shm", os.path.exists({str(shm)!r}), attempt("/dev/shm/mine"))
        print("ide_visible", os.path.exists("/proc/{os.getpid()}/environ"))
        print("home_secret", os.path.exists({str(home_secret)!r}))
        import socket
        try:
            socket.socket(socket.AF_UNIX).connect({host_socket!r})
            print("host_socket connected")
        except OSError as exc:
            print("host_socket", type(exc).__name__)
        """,
    )
    try:
        result = run_python(ws, rel, limits=RunLimits(wall_s=10))
    finally:
        shm.unlink()
        home_secret.unlink()
        listener.close()
        os.unlink(host_socket)
    assert result.exit_code == 0, result.stderr_tail
    said = dict(line.split(" ", 1) for line in result.stdout_tail.splitlines() if line.strip())
    assert said["workspace"] == said["subfolder"] == said["tempfile"] == "wrote"
    assert (ws / "made_here.txt").read_text() == "x"
    if not sandbox_capabilities().filesystem_confined:
        assert not EXPECT_NAMESPACES, f"a mount namespace should work here: {sandbox_capabilities().notes}"
        # Only where the OS gives neither root nor user namespaces (checked just above): there is
        # no mount namespace to confine files with, and the sandbox says so instead.
        pytest.skip("this OS allows no mount namespace for this user (not root, user namespaces off)")
    assert {"filesystem:mount-namespace", "proc:private"} <= set(result.enforced)
    assert said["outside"] == said["hook"] == said["snapshot"] == "OSError"
    assert not outside.exists() and not (ws / ".git/hooks/pre-commit").exists()
    assert not (ws / ".localcrew" / "tampered").exists()
    assert said["host_shm"] == "False wrote"  # a private, writable /dev/shm...
    assert not Path("/dev/shm/mine").exists()  # ...that is gone with the run
    assert said["ide_visible"] == "False"
    assert said["host_socket"] == "FileNotFoundError"  # /tmp is the sandbox's own, empty
    assert said["home_secret"] == "False"  # and so is the user's home


@linux_only
@pytest.mark.parametrize("under", ["tmp", "home"])
def test_a_python_under_tmp_or_home_still_runs_the_program(tmp_path: Path, ws: Path, under: str) -> None:
    """/tmp and the home are covered by the sandbox's own tmpfs; a venv there (a clone) is bound back."""
    folder = tmp_path if under == "tmp" else Path(tempfile.mkdtemp(prefix=".localcrew-test-", dir=USER_HOME))
    try:
        venv = folder / "venv"
        base = getattr(sys, "_base_executable", sys.executable)
        subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
        write(ws, "p.py", "import sys\nprint('ran on', sys.prefix)\n")
        script = (
            "import sys; sys.path.insert(0, sys.argv[1]); from pathlib import Path;"
            "from tools.sandbox import run_python; r = run_python(Path(sys.argv[2]), 'p.py');"
            "print(r.exit_code, r.enforced, r.stdout_tail, r.stderr_tail)"
        )
        done = subprocess.run(
            [str(venv / "bin" / "python"), "-c", script, str(REPO), str(ws)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        if folder != tmp_path:
            shutil.rmtree(folder, ignore_errors=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("0 ") and f"ran on {venv}" in done.stdout, done.stdout


def test_pytest_passing_and_failing(ws: Path) -> None:
    write(ws, "calc.py", "def add(a, b):\n    return a + b\n")
    write(
        ws,
        "tests/test_ok.py",
        "from calc import add\n\ndef test_add():\n    assert add(2, 2) == 4\n",
    )
    passing = run_pytest(ws, "tests/test_ok.py", RunLimits(wall_s=30))
    assert passing.exit_code == 0, passing.stdout_tail + passing.stderr_tail
    assert "1 passed" in passing.stdout_tail
    write(ws, "tests/test_bad.py", "def test_bad():\n    assert 1 + 1 == 3\n")
    failing = run_pytest(ws, limits=RunLimits(wall_s=30))
    assert failing.exit_code == 1
    assert "1 failed, 1 passed" in failing.stdout_tail
    assert failing.command[-1] == "."
    assert not (ws / ".pytest_cache").exists()
    assert not (ws / "tests" / "__pycache__").exists()


def test_pytest_reads_no_settings_or_conftest_from_above_the_workspace(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    write(tmp_path, "conftest.py", "print('conftest above the workspace ran')\n")
    write(tmp_path, "pytest.ini", "[pytest]\naddopts = -s\n")  # would show the test's print
    write(ws, "test_a.py", "def test_a():\n    print('printed by the test')\n")
    alone = run_pytest(ws, limits=RunLimits(wall_s=30))
    assert alone.exit_code == 0, alone.stdout_tail + alone.stderr_tail
    shown = alone.stdout_tail + alone.stderr_tail
    assert "conftest above" not in shown and "printed by the test" not in shown
    write(ws, "pytest.ini", "[pytest]\naddopts = -s\n")  # the workspace's own settings do count
    own = run_pytest(ws, limits=RunLimits(wall_s=30))
    assert "printed by the test" in own.stdout_tail
    assert "conftest above" not in own.stdout_tail + own.stderr_tail


@linux_only
def test_ide_crash_takes_the_sandbox_down(
    ws: Path, marker: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A temp folder of its own: any sandbox run clears a dead IDE's home, and the other worker's
    # runs did so before this test could see it left behind.
    private = tmp_path / "tmp"
    private.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(private))
    write(ws, "hang.py", "import time\nopen('running', 'w').close()\nwhile True: time.sleep(1)\n")
    ide = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from pathlib import Path; from tools.sandbox import run_python, RunLimits;"
            "run_python(Path(sys.argv[1]), 'hang.py', [sys.argv[2]], RunLimits(wall_s=60))",
            str(ws),
            marker,
        ],
        cwd=REPO,
        env={**os.environ, "TMPDIR": str(private)},
    )
    # Its writes land in staging until the run ends: its command line says it is running.
    deadline = time.monotonic() + 10
    while not set(survivors(marker, wait_s=0)) - {ide.pid} and time.monotonic() < deadline:
        time.sleep(0.05)
    assert set(survivors(marker, wait_s=0)) - {ide.pid}  # it is running now
    ide.send_signal(signal.SIGKILL)
    ide.wait()
    assert survivors(marker, wait_s=2) == []
    left_home = list(Path(tempfile.gettempdir()).glob(f"localcrew-sbx-home-{ide.pid}-*"))
    assert len(left_home) == 1  # the dead IDE could not clean up...
    run_python(ws, write(ws, "p.py", "pass\n"))
    assert not left_home[0].exists()  # ...so the next run does


@linux_only
def test_capabilities_match_what_runs_report(ws: Path) -> None:
    caps = sandbox_capabilities()
    assert caps.time_limit and caps.output_limit and caps.memory_limit
    rel = write(ws, "p.py", "pass\n")
    enforced = run_python(ws, rel).enforced
    assert ("network:netns" in enforced) == caps.network_isolation
    assert any(e == f"processes:{caps.process_limit}" for e in enforced) or not caps.process_limit
    assert f"tree:{caps.tree_kill}" in enforced
    if EXPECT_NAMESPACES:
        assert caps.network_isolation
        assert caps.tree_kill == "pid-namespace"
    if EXPECT_PROCESS_LIMIT:
        expected = "cgroup-pids" if os.geteuid() == 0 else "rlimit-nproc-in-userns"
        assert caps.process_limit == expected


def test_a_weaker_sandbox_is_said_and_a_full_one_is_not() -> None:
    full = SandboxCapabilities("linux", True, True, True, "cgroup-pids", True, True, "pid-namespace", ())
    assert full.warning() == "" and "missing" not in full.describe()
    assert "files: workspace only" in full.describe()
    weak = SandboxCapabilities(
        "linux",
        True,
        True,
        True,
        None,
        False,
        False,
        "process-group",
        ("no network isolation: needs a netns",),
    )
    assert "no network isolation" in weak.warning()
    assert "files: workspace only" not in weak.describe() and "  missing: no network" in weak.describe()
    if EXPECT_NAMESPACES and EXPECT_PROCESS_LIMIT:  # this machine holds every limit: no warning
        assert sandbox_capabilities().warning() == ""


NOBODY = 65534
SYSTEM_PYTHON = shutil.which("python3", path="/usr/bin:/bin")


@linux_only
@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become an unprivileged user")
@pytest.mark.skipif(SYSTEM_PYTHON is None, reason="needs a system python3 for the other user")
def test_unprivileged_user_gets_userns_limits(marker: str) -> None:
    """The desktop case: a normal user, where RLIMIT_NPROC would count all their processes."""
    base = Path(tempfile.mkdtemp(prefix="lc-unpriv-"))
    try:
        pkg = base / "pkg" / "tools"
        pkg.mkdir(parents=True)
        for module in (REPO / "tools").glob("*.py"):
            shutil.copy(module, pkg / module.name)
        skip = shutil.ignore_patterns("__pycache__")
        shutil.copytree(REPO / "tools" / "sandbox", pkg / "sandbox", ignore=skip)
        ws = base / "ws"
        ws.mkdir()
        write(
            ws,
            "bomb.py",
            "import os, contextlib\nopen('made_by_me', 'w').close()\n"
            "with contextlib.suppress(OSError): open('../escaped', 'w').close()\n"
            "while True: os.fork()\n",
        )
        for path in [base, *base.rglob("*")]:
            os.chown(path, NOBODY, NOBODY)
        script = textwrap.dedent(
            """
            import json, sys
            sys.path.insert(0, sys.argv[1])
            from pathlib import Path
            from tools.sandbox import RunLimits, run_python
            r = run_python(Path(sys.argv[2]), "bomb.py", [sys.argv[3]],
                           RunLimits(wall_s=5, max_processes=16))
            print(json.dumps({"limit": r.limit_hit, "enforced": r.enforced,
                              "net": r.network_isolated}))
            """
        )
        done = subprocess.run(
            [SYSTEM_PYTHON, "-c", script, str(base / "pkg"), str(ws), marker],
            user=NOBODY,
            group=NOBODY,
            extra_groups=[],
            cwd=base,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        if not userns_available():
            assert "processes:rlimit-nproc-in-userns" not in report["enforced"]
            pytest.skip("user namespaces disabled here")
        assert report["limit"] == "processes"
        assert "processes:rlimit-nproc-in-userns" in report["enforced"]
        assert "tree:pid-namespace" in report["enforced"]
        assert report["net"] is True
        assert (ws / "made_by_me").stat().st_uid == NOBODY
        assert {"filesystem:mount-namespace", "proc:private"} <= set(report["enforced"])
        # The same confinement as root's, but for memory: no cgroup for this user, so watched.
        assert {"seccomp:filter", "staging:copy", "ipc:ipc-uts-namespaces"} <= set(report["enforced"])
        assert "memory-total:polled" in report["enforced"]
        assert not (base / "escaped").exists()  # base is nobody's too: only the mounts stop it
        assert survivors(marker) == []
    finally:
        shutil.rmtree(base, ignore_errors=True)
