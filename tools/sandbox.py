"""Run generated code with limits: wall time, memory, process count, output size and network.

How each limit is enforced on Linux, and why this way:

- Process tree / wall time: the program starts in a new session, and a tiny launcher puts it in a
  new PID namespace. Our own init process (pid 1 there) reaps zombies and exits as soon as the
  program exits; the kernel then SIGKILLs everything left in the namespace. So a program that
  daemonizes or calls setsid() cannot leave survivors, which a plain killpg() cannot promise.
  On timeout we SIGKILL the launcher's process group, which contains that init.
- Process count: RLIMIT_NPROC alone is useless here: root ignores it, and for a normal user it
  counts every process the user owns (a desktop already has hundreds). Since Linux 5.14 it is
  counted per (user namespace, uid), so for an unprivileged user the launcher first enters a new
  user namespace (uid mapped to itself, so files the program writes stay owned by the user) and
  then sets RLIMIT_NPROC, which then counts only the sandbox's tasks. Root is exempt from
  RLIMIT_NPROC in any namespace (mapping root to an unprivileged uid would lock the program out
  of a root-owned workspace), so for root we use a cgroup `pids.max` (cgroup v2 or the v1 pids
  hierarchy), which root can create. Both count threads too.
- Network: a new network namespace (only loopback, brought up so the program can talk to itself).
  Root may create it directly; a normal user may inside the new user namespace.
- Files: a new mount namespace where every mount is read-only except the workspace and the run's
  own temporary home; inside the workspace, .git and .localcrew stay read-only too. /tmp,
  /dev/shm, /run and the user's home are replaced by empty private tmpfs (shared memory, the
  sockets of other programs such as X11's and ssh-agent's, and the keys and tokens in the home
  are out of reach; a workspace or Python inside /tmp or the home is bound back in place), and the
  program's init mounts a fresh /proc, so it sees only its own processes (not the IDE's
  environment). Same namespace rules as the network: root, or a user namespace.
- Memory: RLIMIT_AS on the program (and each child), so allocation fails with MemoryError.
- Output: stdout/stderr are read incrementally by threads into bounded tails; once the total
  passes `output_bytes` the tree is killed.

Every mechanism is tried and its failure tolerated: the launcher reports what it achieved, and
`RunResult.enforced` / `sandbox_capabilities()` say what really held. Where user namespaces are
disabled (some distributions), the process limit and network isolation are off and the tree kill
falls back to the process group. On macOS and Windows only the time and output limits (and a
process-group kill) apply. When running as root the program also runs as root: the sandbox limits
damage from buggy generated code; it is not a security boundary against hostile root code.

This file doubles as the launcher (`python -I -S sandbox.py --launch CONFIG`), so its top-level
imports are standard library only.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

IS_LINUX = sys.platform.startswith("linux")

CLONE_NEWNET = 0x40000000
CLONE_NEWPID = 0x20000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWNS = 0x00020000
MS_NOSUID, MS_NODEV, MS_NOEXEC = 0x2, 0x4, 0x8
MS_BIND, MS_REC, MS_PRIVATE = 0x1000, 0x4000, 0x40000
SYS_MOUNT_SETATTR = 442  # the same number on every Linux architecture (added in 5.12)
AT_FDCWD, AT_RECURSIVE, MOUNT_ATTR_RDONLY = -100, 0x8000, 0x1
# Inside the workspace, still read-only to the program: git history (a planted hook would run at
# the user's next commit, outside the sandbox) and LocalCrew's undo snapshots.
PROTECTED_DIRS = (".git", ".localcrew")
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 0x1
EXTRA_TASKS = 2  # launcher + init are counted by RLIMIT_NPROC / pids.max as well


@dataclass
class RunLimits:
    wall_s: float = 10.0
    memory_mb: int = 512
    max_processes: int = 32  # tasks, threads included, of the program and its children
    output_bytes: int = 64_000  # stdout + stderr together
    file_mb: int = 64  # largest file the program may write (RLIMIT_FSIZE): a loop cannot fill the disk
    network: bool = False  # False: run in a network namespace with no way out


@dataclass
class RunResult:
    command: list[str]
    exit_code: int | None  # negative: killed by that signal; None: we stopped it
    stdout_tail: str
    stderr_tail: str
    duration_s: float
    limit_hit: str | None  # "time" | "memory" | "processes" | "output" | "file size" | None
    network_isolated: bool
    enforced: tuple[str, ...] = field(default=())  # e.g. "processes:cgroup-pids"

    def summary(self) -> str:
        """One line for logs and for the model."""
        took = f"{self.duration_s:.2f}s"
        if self.exit_code is None:
            text = f"stopped by the {self.limit_hit or 'sandbox'} limit after {took}"
        else:
            text = f"exit {self.exit_code} in {took}"
            if self.limit_hit:
                text += f", {self.limit_hit} limit hit"
        name = Path(self.command[0]).name if self.command else "?"
        shown = " ".join([name, *self.command[1:]])
        if len(shown) > 80:
            shown = shown[:77] + "..."
        return f"{shown}: {text}"


@dataclass(frozen=True)
class SandboxCapabilities:
    platform: str
    time_limit: bool
    output_limit: bool
    memory_limit: bool
    process_limit: str | None  # "rlimit-nproc-in-userns", "cgroup-pids" or None
    network_isolation: bool
    filesystem_confined: bool  # read-only outside the workspace, private /dev/shm, /run and /proc
    tree_kill: str  # "pid-namespace", "process-group" or "process"
    notes: tuple[str, ...]

    def describe(self) -> str:
        """For `doctor`: what holds here, then what does not."""
        held = ["time", "output"] + ["memory"] * self.memory_limit
        held += [f"processes ({self.process_limit})"] * bool(self.process_limit)
        held += ["no network"] * self.network_isolation + ["files: workspace only"] * self.filesystem_confined
        held.append(f"tree kill ({self.tree_kill})")
        return "\n".join([f"Sandbox: {', '.join(held)}", *(f"  missing: {note}" for note in self.notes)])

    def warning(self) -> str:
        """One line for the IDE's page where generated code runs with less than every limit; else ''."""
        return f"Generated code runs with weaker limits here: {'; '.join(self.notes)}." if self.notes else ""


# -- public entry points ---------------------------------------------------------------------


def run_python(
    workspace: Path,
    rel_file: str,
    args: list[str] | None = None,
    limits: RunLimits | None = None,
) -> RunResult:
    """Run a Python file of the workspace with `sys.executable`, cwd = workspace."""
    root, path = _confine(workspace, rel_file)
    if not path.is_file():
        from tools.workspace_files import WorkspaceError

        raise WorkspaceError(f"cannot run {rel_file!r}: not a file")
    argv = [sys.executable, path.relative_to(root).as_posix(), *(args or [])]
    return run_command(root, argv, limits or RunLimits())


# Where pytest looks for its settings, in its own order; only the workspace's own count.
PYTEST_CONFIGS = ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")


def run_pytest(workspace: Path, rel_target: str = ".", limits: RunLimits | None = None) -> RunResult:
    """Run pytest on a file or directory of the workspace, without writing a cache there.

    pytest would also read settings and conftest.py files from the folders above the workspace
    (code the crew never saw and the user may not own): the config is the workspace's own or none,
    and conftest files are looked for inside the workspace only.
    """
    root, path = _confine(workspace, rel_target)
    target = path.relative_to(root).as_posix() or "."
    config = next((name for name in PYTEST_CONFIGS if (root / name).is_file()), os.devnull)
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", config]
    argv += ["--rootdir=.", "--confcutdir=.", target]
    return run_command(root, argv, limits or RunLimits())


@functools.lru_cache(maxsize=1)
def sandbox_capabilities() -> SandboxCapabilities:
    """What this machine really enforces, measured by running a trivial program once."""
    with tempfile.TemporaryDirectory(prefix="localcrew-probe-") as tmp:
        result = run_command(Path(tmp), [sys.executable, "-c", "pass"], RunLimits(wall_s=20))
    got = dict(item.split(":", 1) if ":" in item else (item, "") for item in result.enforced)
    notes: list[str] = []
    if "processes" not in got:
        notes.append("no process-count limit: needs user namespaces (or root + pids cgroup)")
    if "network" not in got:
        notes.append("no network isolation: needs a network namespace")
    if "filesystem" not in got:
        notes.append("files outside the workspace are writable: needs a mount namespace")
    if got.get("tree") != "pid-namespace":
        notes.append("tree kill by process group only: a setsid() child could survive")
    return SandboxCapabilities(
        platform=sys.platform,
        time_limit=True,
        output_limit=True,
        memory_limit="memory" in got,
        process_limit=got.get("processes") or None,
        network_isolation="network" in got,
        filesystem_confined="filesystem" in got and "proc" in got,
        tree_kill=got.get("tree", "process"),
        notes=tuple(notes),
    )


def run_command(workspace: Path, argv: list[str], limits: RunLimits) -> RunResult:
    """Run argv (never through a shell) in `workspace` under `limits`."""
    _sweep_stale_homes()
    home = tempfile.mkdtemp(prefix=f"localcrew-sbx-home-{os.getpid()}-")
    os.mkdir(os.path.join(home, "tmp"))
    cgroup = _make_pids_cgroup(limits.max_processes + EXTRA_TASKS) if IS_LINUX else None
    try:
        return _run(Path(workspace), argv, limits, home, cgroup)
    finally:
        if cgroup is not None:
            _remove_cgroup(cgroup)
        shutil.rmtree(home, ignore_errors=True)


# -- parent side -----------------------------------------------------------------------------


def _sweep_stale_homes() -> None:
    # Temporary homes of runs whose parent was killed (it could not clean up after itself).
    if os.name != "posix":
        return
    prefix = "localcrew-sbx-home-"
    for stale in Path(tempfile.gettempdir()).glob(prefix + "*"):
        try:
            ours = stale.is_dir() and stale.lstat().st_uid == os.getuid()
        except OSError:
            continue
        if ours and not _creator_alive(stale.name, prefix):
            shutil.rmtree(stale, ignore_errors=True)


def _confine(workspace: Path, rel: str) -> tuple[Path, Path]:
    # Imported here so this file still runs as the stdlib-only launcher script.
    from tools.workspace_files import WorkspaceError, WorkspaceFiles

    files = WorkspaceFiles(workspace)
    path = files.resolve(rel)
    if not path.exists():
        raise WorkspaceError(f"cannot run {rel!r}: it does not exist")
    return files.root, path


def _user_home() -> str | None:
    """The real home folder of the user running the IDE, to hide from the program; None if none."""
    import pwd

    try:
        home = os.path.realpath(pwd.getpwuid(os.getuid()).pw_dir)
    except (KeyError, OSError):
        return None
    return home if home != "/" and os.path.isdir(home) else None


def _clean_env(home: str) -> dict[str, str]:
    # Nothing from the parent: no API keys, tokens or proxies; the venv's bin first on PATH.
    bin_dir = os.path.dirname(sys.executable)
    env = {
        "HOME": home,
        "TMPDIR": os.path.join(home, "tmp"),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",  # keep stdout/stderr order when the program is killed
        "PYTHONIOENCODING": "utf-8",
        "LANG": "C.UTF-8",
    }
    if os.name == "nt":
        for key in ("SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT"):
            if key in os.environ:
                env[key] = os.environ[key]
        env["PATH"] = os.pathsep.join([bin_dir, os.environ.get("SYSTEMROOT", r"C:\Windows")])
        env["TEMP"] = env["TMP"] = env["USERPROFILE"] = home
    else:
        env["PATH"] = os.pathsep.join([bin_dir, "/usr/local/bin", "/usr/bin", "/bin"])
    return env


class _Tail:
    """Keeps the last `cap` bytes of a stream and counts the rest."""

    def __init__(self, cap: int):
        self.cap = cap
        self.data = bytearray()
        self.dropped = 0

    def add(self, chunk: bytes) -> None:
        self.data += chunk
        extra = len(self.data) - self.cap
        if extra > 0:
            del self.data[:extra]
            self.dropped += extra

    def text(self) -> str:
        body = self.data.decode("utf-8", errors="replace")
        if self.dropped:
            return f"[... {self.dropped} earlier bytes not kept ...]\n{body}"
        return body


def _run(root: Path, argv: list[str], limits: RunLimits, home: str, cgroup: str | None) -> RunResult:
    env = _clean_env(home)
    status_r = status_w = -1
    if IS_LINUX:
        status_r, status_w = os.pipe()
        config = {
            "argv": argv,
            "memory_bytes": limits.memory_mb * 1024 * 1024 if limits.memory_mb else None,
            "file_bytes": limits.file_mb * 1024 * 1024 if limits.file_mb else None,
            "nproc": limits.max_processes + EXTRA_TASKS,
            "network": limits.network,
            "cgroup": cgroup,
            "status_fd": status_w,
            "parent_pid": os.getpid(),
            # Where the program's Python lives (a venv under /tmp must stay reachable). Read here:
            # the launcher runs with -S, where a venv's sys.prefix is not set yet (Python 3.11).
            "python": [sys.prefix, sys.base_prefix, os.path.dirname(os.path.realpath(sys.executable))],
            "user_home": _user_home(),
        }
        launch = [sys.executable, "-I", "-S", os.path.abspath(__file__), "--launch"]
        proc = subprocess.Popen(
            [*launch, json.dumps(config)],
            cwd=root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            pass_fds=(status_w,),
        )
        os.close(status_w)
    else:
        kwargs: dict = {}
        if os.name == "nt":
            kwargs["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP
        else:
            kwargs["start_new_session"] = True
        proc = subprocess.Popen(
            argv,
            cwd=root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            **kwargs,
        )
    start = time.monotonic()
    tails = {"stdout": _Tail(limits.output_bytes), "stderr": _Tail(limits.output_bytes)}
    total = [0]
    lock = threading.Lock()
    overflow = threading.Event()

    def pump(stream, tail: _Tail) -> None:
        fd = stream.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            with lock:
                tail.add(chunk)
                total[0] += len(chunk)
                if total[0] > limits.output_bytes:
                    overflow.set()
                    return  # stop draining: the program blocks on a full pipe until killed

    readers = [
        threading.Thread(target=pump, args=(proc.stdout, tails["stdout"]), daemon=True),
        threading.Thread(target=pump, args=(proc.stderr, tails["stderr"]), daemon=True),
    ]
    for reader in readers:
        reader.start()

    deadline = start + limits.wall_s
    kill_reason: str | None = None
    while True:
        if overflow.is_set():
            kill_reason = "output"
            break
        if _has_exited(proc):
            break
        now = time.monotonic()
        if now >= deadline:
            kill_reason = "time"
            break
        overflow.wait(min(0.02, deadline - now))
    duration = time.monotonic() - start
    # Always sweep: after a normal exit this only catches leftovers the namespace did not hold.
    _kill_tree(proc, cgroup)
    proc.wait()
    for reader in readers:
        reader.join(timeout=max(0.5, deadline + 1.0 - time.monotonic()))
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()

    report: dict = {}
    status: int | None = None
    if status_r >= 0:
        for line in _read_all(status_r).splitlines():
            try:
                item = json.loads(line)
            except ValueError:
                continue
            if "status" in item:
                status = item["status"]
            else:  # the launcher's report, then what init adds to it
                report = {**report, **item, "notes": report.get("notes", []) + item.get("notes", [])}
    if kill_reason is not None:
        exit_code = None
    elif status is not None:
        exit_code = os.waitstatus_to_exitcode(status)
    elif IS_LINUX:
        exit_code = proc.returncode  # the launcher itself failed; its stderr says why
    else:
        exit_code = proc.returncode

    enforced = _enforced(report, limits)
    stderr_text = tails["stderr"].text()
    limit_hit = _classify(kill_reason, exit_code, stderr_text, cgroup, enforced)
    return RunResult(
        command=list(argv),
        exit_code=exit_code,
        stdout_tail=tails["stdout"].text(),
        stderr_tail=stderr_text,
        duration_s=round(duration, 3),
        limit_hit=limit_hit,
        network_isolated=bool(report.get("netns")),
        enforced=enforced,
    )


def _has_exited(proc: subprocess.Popen) -> bool:
    if hasattr(os, "waitid"):
        # WNOWAIT: notice the exit but leave the zombie, so its process group id cannot be
        # reused by an unrelated process before _kill_tree() signals it.
        try:
            info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        return info is not None
    return proc.poll() is not None


def _kill_tree(proc: subprocess.Popen, cgroup: str | None) -> None:
    if os.name == "nt":
        if proc.poll() is None:
            proc.kill()
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)  # launcher + our init: the PID namespace dies too
    if cgroup is not None:
        _kill_cgroup(cgroup)


def _read_all(fd: int) -> str:
    os.set_blocking(fd, False)
    chunks: list[bytes] = []
    try:
        while True:
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks).decode("utf-8", errors="replace")


def _enforced(report: dict, limits: RunLimits) -> tuple[str, ...]:
    items = ["time", "output"]
    if report.get("memory"):
        items.append("memory:rlimit-as")
    if report.get("file_size"):
        items.append("file size:rlimit-fsize")
    if report.get("cgroup"):
        items.append("processes:cgroup-pids")
    elif report.get("nproc"):
        items.append("processes:rlimit-nproc-in-userns")
    if report.get("netns"):
        items.append("network:netns")
    if report.get("filesystem"):
        items.append("filesystem:mount-namespace")
    if report.get("private_proc"):
        items.append("proc:private")
    if report.get("pidns"):
        items.append("tree:pid-namespace")
    elif os.name == "posix":
        items.append("tree:process-group")
    return tuple(items)


_MEMORY_SIGNS = re.compile(r"(?m)^MemoryError\b|Cannot allocate memory|std::bad_alloc|[Oo]ut of memory")
_FILE_SIZE_SIGNS = re.compile(r"File too large")
_PROCESS_SIGNS = re.compile(
    r"Resource temporarily unavailable|can't start new thread|BlockingIOError: \[Errno 11\]"
)


def _classify(
    kill_reason: str | None,
    exit_code: int | None,
    stderr: str,
    cgroup: str | None,
    enforced: tuple[str, ...],
) -> str | None:
    # A kernel-enforced limit is the root cause even when the program then ran on until we
    # stopped it (a fork bomb retrying, or spewing tracebacks into the output limit).
    pids_refused = cgroup is not None and _cgroup_pids_max_events(cgroup) > 0
    if any(item.startswith("processes") for item in enforced) and (
        pids_refused or _PROCESS_SIGNS.search(stderr)
    ):
        return "processes"
    if any(item.startswith("file size") for item in enforced) and (
        exit_code == -signal.SIGXFSZ or _FILE_SIZE_SIGNS.search(stderr)
    ):
        return "file size"
    if any(item.startswith("memory") for item in enforced) and (
        _MEMORY_SIGNS.search(stderr) or (kill_reason is None and exit_code == -signal.SIGKILL)
    ):
        return "memory"
    return kill_reason


# -- cgroup (root): pids.max -----------------------------------------------------------------


def _pids_cgroup_parent() -> str | None:
    """A cgroup directory with the pids controller under which we may create children."""
    try:
        with open("/proc/self/mounts", encoding="utf-8") as fh:
            mounts = [line.split() for line in fh]
        with open("/proc/self/cgroup", encoding="utf-8") as fh:
            own = [line.rstrip("\n").split(":", 2) for line in fh]
    except OSError:
        return None
    for _dev, mountpoint, fstype, options, *_ in mounts:
        if fstype == "cgroup2":
            try:
                with open(os.path.join(mountpoint, "cgroup.controllers"), encoding="utf-8") as f:
                    if "pids" not in f.read().split():
                        continue
                control = os.path.join(mountpoint, "cgroup.subtree_control")
                with open(control, encoding="utf-8") as f:
                    enabled = "pids" in f.read().split()
                if not enabled:
                    with open(control, "w", encoding="utf-8") as f:
                        f.write("+pids")
            except OSError:
                continue
            # The root cgroup is the only v2 cgroup exempt from "no internal processes".
            return mountpoint
        if fstype == "cgroup" and "pids" in options.split(","):
            for _id, controllers, path in own:
                if "pids" in controllers.split(","):
                    candidate = os.path.join(mountpoint, path.lstrip("/"))
                    if os.access(candidate, os.W_OK):
                        return candidate
            return mountpoint if os.access(mountpoint, os.W_OK) else None
    return None


def _make_pids_cgroup(max_tasks: int) -> str | None:
    if os.geteuid() != 0:
        return None  # unprivileged users get RLIMIT_NPROC in a user namespace instead
    parent = _pids_cgroup_parent()
    if parent is None or not os.access(parent, os.W_OK):
        return None
    for stale in Path(parent).glob("localcrew-sbx-*"):
        if _creator_alive(stale.name, "localcrew-sbx-"):
            continue  # another run's cgroup, possibly still empty before its launcher joins
        with contextlib.suppress(OSError):
            stale.rmdir()  # left by a crashed parent; fails harmlessly while still in use
    path = os.path.join(parent, f"localcrew-sbx-{os.getpid()}-{os.urandom(4).hex()}")
    try:
        os.mkdir(path)
        with open(os.path.join(path, "pids.max"), "w", encoding="ascii") as fh:
            fh.write(str(max_tasks))
    except OSError:
        _remove_cgroup(path)
        return None
    return path


def _creator_alive(name: str, prefix: str) -> bool:
    """Whether the process whose pid follows `prefix` in `name` still exists."""
    try:
        pid = int(name.removeprefix(prefix).split("-")[0])
    except ValueError:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _cgroup_pids(cgroup: str) -> list[int]:
    try:
        with open(os.path.join(cgroup, "cgroup.procs"), encoding="ascii") as fh:
            return [int(line) for line in fh if line.strip()]
    except OSError:
        return []


def _kill_cgroup(cgroup: str) -> None:
    kill_file = os.path.join(cgroup, "cgroup.kill")
    for _ in range(200):
        pids = _cgroup_pids(cgroup)
        if not pids:
            return
        if os.path.exists(kill_file):
            try:
                with open(kill_file, "w", encoding="ascii") as fh:
                    fh.write("1")
            except OSError:
                pass
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.005)


def _cgroup_pids_max_events(cgroup: str) -> int:
    try:
        with open(os.path.join(cgroup, "pids.events"), encoding="ascii") as fh:
            for line in fh:
                key, _, value = line.partition(" ")
                if key == "max":
                    return int(value)
    except (OSError, ValueError):
        pass
    return 0


def _remove_cgroup(cgroup: str) -> None:
    _kill_cgroup(cgroup)
    for _ in range(100):
        try:
            os.rmdir(cgroup)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.01)  # tasks still exiting


# -- launcher side (runs as `python -I -S sandbox.py --launch CONFIG`) -----------------------


def _launcher_main(config: dict) -> None:
    import ctypes
    import resource

    libc = ctypes.CDLL(None, use_errno=True)
    # If the IDE dies, the sandbox dies with it (and with the launcher, the PID namespace).
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != config["parent_pid"]:
        os._exit(125)
    status_fd = config["status_fd"]
    report: dict = {"notes": []}

    def unshare(flag: int, name: str) -> bool:
        if libc.unshare(flag) == 0:
            return True
        report["notes"].append(f"unshare {name}: {os.strerror(ctypes.get_errno())}")
        return False

    if config["cgroup"]:
        try:
            with open(os.path.join(config["cgroup"], "cgroup.procs"), "w") as fh:
                fh.write(str(os.getpid()))
            report["cgroup"] = True
        except OSError as exc:
            report["notes"].append(f"cgroup: {exc}")

    uid, gid = os.geteuid(), os.getegid()
    own_userns = False
    if uid != 0 and unshare(CLONE_NEWUSER, "user"):
        own_userns = True
        try:
            # Map our uid/gid to themselves: files the program writes stay the user's.
            with open("/proc/self/setgroups", "w") as fh:
                fh.write("deny")
            with open("/proc/self/uid_map", "w") as fh:
                fh.write(f"{uid} {uid} 1\n")
            with open("/proc/self/gid_map", "w") as fh:
                fh.write(f"{gid} {gid} 1\n")
            report["userns"] = True
        except OSError as exc:
            report["notes"].append(f"user namespace id map: {exc}")
    if uid == 0 or own_userns:
        if not config["network"] and unshare(CLONE_NEWNET, "net"):
            report["netns"] = True
            _loopback_up(report)
        if unshare(CLONE_NEWNS, "mount"):
            try:
                report["filesystem"] = _confine_filesystem(libc, config, report)
            except _HalfConfined as exc:
                os.write(2, f"sandbox: cannot confine the program to the workspace: {exc}\n".encode())
                os._exit(126)
        report["pidns"] = unshare(CLONE_NEWPID, "pid")
    if own_userns:
        # Counted per (user namespace, uid) since Linux 5.14: only the sandbox's own tasks.
        nproc = config["nproc"]
        try:
            resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
            report["nproc"] = True
        except (ValueError, OSError) as exc:
            report["notes"].append(f"RLIMIT_NPROC: {exc}")
    report["memory"] = bool(config["memory_bytes"])
    report["file_size"] = bool(config.get("file_bytes"))
    os.write(status_fd, (json.dumps(report) + "\n").encode())

    init = os.fork()
    if init == 0:
        _init_main(config, libc, bool(report.get("pidns")), bool(report.get("filesystem")))
    os.waitpid(init, 0)
    os._exit(0)


def _mount(
    libc, report: dict, source: str | None, target: str, fstype: str | None, flags: int, data: str = ""
) -> bool:
    import ctypes

    args = [text.encode() if text else None for text in (source, target, fstype)]
    if libc.mount(args[0], args[1], args[2], ctypes.c_ulong(flags), data.encode() if data else None) == 0:
        return True
    report["notes"].append(f"mount {target}: {os.strerror(ctypes.get_errno())}")
    return False


def _set_read_only(libc, report: dict, path: str, read_only: bool) -> bool:
    """mount_setattr(2) on `path` and every mount below it, all or nothing (MS_REMOUNT is per mount)."""
    import ctypes
    import struct

    # struct mount_attr {u64 attr_set, attr_clr, propagation, userns_fd}
    flag_set, flag_clear = (MOUNT_ATTR_RDONLY, 0) if read_only else (0, MOUNT_ATTR_RDONLY)
    attr = ctypes.create_string_buffer(struct.pack("QQQQ", flag_set, flag_clear, 0, 0), 32)
    done = libc.syscall(
        ctypes.c_long(SYS_MOUNT_SETATTR), ctypes.c_int(AT_FDCWD), path.encode(),
        ctypes.c_uint(AT_RECURSIVE), attr, ctypes.c_size_t(32),
    )  # fmt: skip
    if done == 0:
        return True
    report["notes"].append(f"mount_setattr {path}: {os.strerror(ctypes.get_errno())}")
    return False


class _HalfConfined(Exception):
    """Part of the filesystem became read-only but the rest could not be set up: do not run."""


def _confine_filesystem(libc, config: dict, report: dict) -> bool:
    """In a fresh mount namespace: all read-only but the workspace (the cwd) and the run's home.

    False when nothing became read-only (the run goes on without it, and the report says so).
    """
    workspace, home = os.getcwd(), os.environ["HOME"]
    writable = (workspace, home)

    def bind(path: str) -> bool:  # makes the folder its own mount, to be set apart from the rest
        return _mount(libc, report, path, path, None, MS_BIND | MS_REC)

    # Private first, so nothing done here reaches the host's mounts; nothing is read-only yet.
    if not (_mount(libc, report, None, "/", None, MS_REC | MS_PRIVATE) and all(map(bind, writable))):
        return False
    keep = [*writable, *config["python"]]
    # /tmp holds other programs' sockets (X11, ssh-agent), which no read-only mount keeps closed.
    _cover_keeping(libc, report, "/tmp", keep, config.get("file_bytes") or 64 << 20)
    # The user's home holds keys and tokens (~/.ssh, browser profiles) that read-only leaves readable.
    if config.get("user_home"):
        _cover_keeping(libc, report, config["user_home"], keep, 1 << 20)
    if not _set_read_only(libc, report, "/", True):  # all or nothing
        return False
    protected = [os.path.join(workspace, name) for name in PROTECTED_DIRS]
    protected = [path for path in protected if os.path.isdir(path) and not os.path.islink(path)]
    done = (
        all(_set_read_only(libc, report, path, False) for path in writable)
        and all(bind(path) and _set_read_only(libc, report, path, True) for path in protected)
        and all(
            _mount(libc, report, "tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, options)
            for path, options in _hidden_mounts(config, writable).items()
        )
    )
    if not done:
        raise _HalfConfined("; ".join(report["notes"]))
    os.chdir(workspace)  # the old cwd is the read-only folder underneath the new mount
    return True


def _cover_keeping(libc, report: dict, folder: str, keep: list[str], size: int) -> bool:
    """An empty private tmpfs over `folder`, with the `keep` paths inside it bound back in place.

    False, with a note, where it could not be covered (then nothing changed); _HalfConfined where a
    kept path could not be bound back (a workspace or Python under /tmp would be gone).
    """
    if not os.path.isdir(folder) or os.path.islink(folder):
        return False
    inside = {os.path.realpath(p) for p in keep}
    inside = {p for p in inside if os.path.commonpath([folder, p]) == folder}
    outermost = [p for p in inside if not any(p != q and os.path.commonpath([p, q]) == q for q in inside)]
    if folder in outermost:  # the whole folder is needed (a workspace at /tmp itself): leave it
        report["notes"].append(f"{folder} left as it is: the workspace or Python is {folder} itself")
        return False
    handles: list[tuple[str, int]] = []
    try:
        # Opened before the cover: the only way back to what it hides.
        for path in outermost:
            handles.append((path, os.open(path, os.O_PATH | os.O_DIRECTORY)))
        if not _mount(libc, report, "tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, f"size={size},mode=1777"):
            return False
        for path, handle in handles:
            os.makedirs(path, exist_ok=True)
            if not _mount(libc, report, f"/proc/self/fd/{handle}", path, None, MS_BIND | MS_REC):
                raise _HalfConfined("; ".join(report["notes"]))
        return True
    except OSError as exc:
        if len(handles) == len(outermost):  # the cover is in place: what it hides is gone
            raise _HalfConfined(f"{folder}: {exc}") from None
        report["notes"].append(f"{folder} left as it is: {exc}")
        return False
    finally:
        for _path, handle in handles:
            os.close(handle)


def _hidden_mounts(config: dict, writable: tuple[str, ...]) -> dict[str, str]:
    """Folders covered by an empty private tmpfs, and its options.

    /dev/shm: the host's shared memory, and a place to fill RAM. /run: the sockets of other
    programs (Docker, D-Bus); only without network, as /etc/resolv.conf often points into it.
    """
    hidden = {"/dev/shm": f"size={config.get('file_bytes') or 64 << 20},mode=1777"}
    if not config["network"]:
        hidden["/run"] = "size=64k,mode=755"
    return {
        path: options
        for path, options in hidden.items()
        if os.path.isdir(path) and not any(os.path.commonpath([path, w]) == path for w in writable)
    }


def _loopback_up(report: dict) -> None:
    import fcntl
    import socket
    import struct

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            ifreq = struct.pack("16sH22x", b"lo", 0)
            flags = struct.unpack("16sH22x", fcntl.ioctl(sock, SIOCGIFFLAGS, ifreq))[1]
            fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sH22x", b"lo", flags | IFF_UP))
    except OSError as exc:
        report["notes"].append(f"loopback up: {exc}")


def _init_main(config: dict, libc, in_pidns: bool, own_mounts: bool) -> None:
    """Pid 1 of the sandbox: start the program, reap everything, report its status."""
    import resource

    status_fd = config["status_fd"]
    try:
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if in_pidns and own_mounts:
            # A /proc of this PID namespace: the program cannot read the IDE's /proc/<pid>/environ.
            # Some containers refuse it (masked /proc paths); the run goes on and says so.
            notes: list[str] = []
            private = _mount(
                libc, {"notes": notes}, "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC
            )
            os.write(status_fd, (json.dumps({"private_proc": private, "notes": notes}) + "\n").encode())
        if not in_pidns:
            libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)  # orphans come back to us
        program = os.fork()
        if program == 0:
            os.close(status_fd)
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            if config["memory_bytes"]:
                limit = config["memory_bytes"]
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            if config.get("file_bytes"):
                resource.setrlimit(resource.RLIMIT_FSIZE, (config["file_bytes"], config["file_bytes"]))
            argv = config["argv"]
            try:
                os.execv(argv[0], argv)
            except OSError as exc:
                os.write(2, f"sandbox: cannot run {argv[0]}: {exc}\n".encode())
                os._exit(127)
        while True:
            pid, status = os.wait()
            if pid == program:
                break
        os.write(status_fd, (json.dumps({"status": status}) + "\n").encode())
    finally:
        # Exiting as pid 1 makes the kernel kill whatever the program left behind.
        os._exit(0)


if __name__ == "__main__" and len(sys.argv) == 3 and sys.argv[1] == "--launch":
    _launcher_main(json.loads(sys.argv[2]))
