"""Run generated code with limits: wall time, memory, process count, output size, network, files.

How each limit is enforced on Linux, and why this way (the launcher, `_launcher.py`, does the
namespace work; its docstring gives the order):

- Never real root: when the IDE runs as root, the program runs as an unused uid (SANDBOX_ID) in a
  user namespace that maps only that uid, with an empty capability bounding set, no_new_privs and
  a seccomp filter (mount, namespaces, ptrace, keyrings, modules, kexec, hostname, bpf...). A
  normal user's program keeps the user's uid in its own user namespace, with the same filter.
- Files: the program never writes the workspace. It works on a staging copy on a size-capped tmpfs
  (the total it may write), bound over the workspace's path; after the run the IDE applies back
  only regular files, deletions and folders, within a byte and file budget, and refuses symlinks,
  FIFOs, devices, hard links, anything named .git or .localcrew, any folder git would take for a
  repository, and whatever Undo could not take back: dot-names, folders a tool owns, bytecode,
  .pth files, files larger than the snapshot saves (`_staging.py`, `_discovery.py`).
  `RunResult.refused` lists what was not applied. A copy rather than an overlay: a root IDE's
  workspace is owned by uid 0, which the program's namespace does not map, so an overlay would
  not let it change a file; the copy is owned by the program's uid.
- Files outside: the program has a root of its own (`_rootfs.py`, pivot_root): the system
  (/usr, /lib*, /etc) and its Python's folders read-only, the staging copy and its home; /tmp,
  /var/tmp, /run and /dev/shm are empty private tmpfs, /dev holds only null, zero, full, random
  and urandom (no terminals, no vsock), and /proc is the PID namespace's own.
- Process tree / wall time: a PID namespace whose init (ours) exits when the program exits; the
  kernel then kills everything left, so a setsid() daemon cannot survive. On timeout we SIGKILL
  the launcher's process group, which holds that init.
- Process count: RLIMIT_NPROC, counted per (user namespace, uid) since Linux 5.14, for a normal
  user; for root a cgroup `pids.max` (cgroup v2 or the v1 pids hierarchy). Both count threads.
- Memory: RLIMIT_AS on every process, and for root a memory cgroup for the whole tree (what the
  program writes to tmpfs included, the staging copy not: it is made before the launcher joins),
  so 4 processes cannot hold 4 times the limit. Without one (a normal user) the tree's
  anonymous and shared memory (Pss) is watched every 20 ms, and what no process maps (memfd,
  SysV shared memory and messages) cannot be made: those calls answer ENOSYS (memfd_secret in
  both modes). Kernel memory no process maps, such as unix socket buffers, is bounded only by a
  cgroup: a normal user's run has none (the README says so).
- Network, IPC, hostname: new network (loopback only), IPC and UTS namespaces; a new session
  keyring. seccomp allows sockets of AF_UNIX, AF_INET and AF_INET6 only (AF_VSOCK is outside
  any network namespace and reaches the hypervisor), and refuses io_uring, whose
  IORING_OP_SOCKET would make the others without socket().
- Output: stdout/stderr are read incrementally by threads into bounded tails; once the total
  passes `output_bytes` the tree is killed.

Every mechanism is tried and its failure tolerated where that is safe: `RunResult.enforced` and
`sandbox_capabilities()` say what really held. On macOS and Windows only the time and output
limits (and a process-group kill) apply, and the program writes the workspace directly.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools import run_snapshot
from tools.sandbox import _cgroup, _staging
from tools.sandbox._launcher import SANDBOX_ID, STAGE_HOME
from tools.workspace_files import PROTECTED_DIRS, WorkspaceError, WorkspaceFiles

IS_LINUX = sys.platform.startswith("linux")

SCRATCH_MB = 4  # the program's own /tmp, /var/tmp, /run and /dev (tmpfs, see _rootfs.SCRATCH)
EXTRA_TASKS = 2  # launcher + init count in RLIMIT_NPROC / pids.max (the id-map helper is gone by then)
LAUNCHER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_launcher.py")
__all__ = [
    "PROTECTED_DIRS",
    "SANDBOX_ID",
    "RunLimits",
    "RunResult",
    "SandboxCapabilities",
    "run_command",
    "run_pytest",
    "run_python",
    "sandbox_capabilities",
]


@dataclass
class RunLimits:
    wall_s: float = 10.0
    memory_mb: int = 512
    max_processes: int = 32  # tasks, threads included, of the program and its children
    output_bytes: int = 64_000  # stdout + stderr together
    file_mb: int = 64  # largest file the program may write (RLIMIT_FSIZE): a loop cannot fill the disk
    network: bool = False  # False: run in a network namespace with no way out
    # All it may write (staging, home, temp files), and the most applied back. Those files live in
    # memory (tmpfs): a memory cgroup allows memory_mb + write_mb for the whole run.
    write_mb: int = 256
    max_files: int = 2000  # files and folders it may create, and the most changes applied back
    stage_mb: int = 512  # the largest workspace copied for a run (bound folders such as .venv aside)
    # False: nothing the program wrote is applied back (on Linux; elsewhere it writes the workspace).
    # The reviewer's asserts are checks, not the user's program: a check calling clear_log('app.log')
    # must not empty the user's log.
    apply_back: bool = True
    # Set by the user's Stop: the program is killed at once, not at its time limit.
    stop: threading.Event | None = field(default=None, compare=False, repr=False)

    @property
    def memory_cap_mb(self) -> int:
        """The memory cgroup's cap (root) for the whole run: the program's memory and every file it
        may write, which lives in memory too (staging, /dev/shm, /tmp and /run). The README states
        this number; 836 MB with the defaults."""
        return self.memory_mb + self.write_mb + self.file_mb + SCRATCH_MB if self.memory_mb else 0


@dataclass
class RunResult:
    command: list[str]
    exit_code: int | None  # negative: killed by that signal; None: we stopped it
    stdout_tail: str
    stderr_tail: str
    duration_s: float
    limit_hit: str | None  # "time" | "memory" | "processes" | "output" | "file size" | "stop" | None
    network_isolated: bool
    enforced: tuple[str, ...] = field(default=())  # e.g. "processes:cgroup-pids"
    # Staging: what was applied to the workspace after the run, and what was not ("path: why").
    applied: tuple[str, ...] = field(default=())
    deleted: tuple[str, ...] = field(default=())
    refused: tuple[str, ...] = field(default=())

    def summary(self) -> str:
        """One line for logs and for the model."""
        took = f"{self.duration_s:.2f}s"
        if self.exit_code is None and self.limit_hit == "stop":
            text = f"stopped by the user after {took}"
        elif self.exit_code is None:
            text = f"stopped by the {self.limit_hit or 'sandbox'} limit after {took}"
        else:
            text = f"exit {self.exit_code} in {took}"
            if self.limit_hit:
                text += f", {self.limit_hit} limit hit"
        if self.refused:
            text += f"; {len(self.refused)} change(s) not applied to the workspace"
        return f"{self.command_text()}: {text}"

    def command_text(self) -> str:
        """The command line as shown: the program's name, not its path."""
        name = Path(self.command[0]).name if self.command else "?"
        shown = " ".join([name, *self.command[1:]])
        return shown[:77] + "..." if len(shown) > 80 else shown


@dataclass(frozen=True)
class SandboxCapabilities:
    platform: str
    time_limit: bool
    output_limit: bool
    memory_limit: bool
    process_limit: str | None  # "rlimit-nproc-in-userns", "cgroup-pids" or None
    network_isolation: bool
    # Sees only the workspace, the system, its Python and its own /tmp, /run, /dev and /proc
    filesystem_confined: bool
    tree_kill: str  # "pid-namespace", "process-group" or "process"
    notes: tuple[str, ...]
    running_as_root: bool = False  # the IDE's own uid is 0
    user_namespace: bool = False  # the program runs in its own user namespace
    program_uid: int | None = None  # the uid the program runs as, outside its namespace
    seccomp: bool = False  # the syscall filter, no_new_privs and an empty bounding set
    memory_scope: str = "per-process"  # "cgroup": one limit for the whole tree; "polled": watched
    staging: bool = False  # writes land in a copy; the IDE applies back what it accepts
    ipc_isolation: bool = False  # own IPC and UTS namespaces

    def describe(self) -> str:
        """For `doctor`: what holds here, then what does not."""
        held = ["time", "output"] + [f"memory ({self.memory_scope})"] * self.memory_limit
        held += [f"processes ({self.process_limit})"] * bool(self.process_limit)
        held += ["no network"] * self.network_isolation + ["files: workspace only"] * self.filesystem_confined
        held += ["writes staged"] * self.staging + ["seccomp"] * self.seccomp
        held += ["own IPC/UTS"] * self.ipc_isolation
        if self.program_uid is not None:
            who = "root's program as uid" if self.running_as_root else "as uid"
            held.append(f"{who} {self.program_uid}" + " in a user namespace" * self.user_namespace)
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
        raise WorkspaceError(f"cannot run {rel_file!r}: not a file")
    argv = [sys.executable, path.relative_to(root).as_posix(), *(args or [])]
    return run_command(root, argv, limits or RunLimits())


# Where pytest looks for its settings, in its own order; only the workspace's own count.
PYTEST_CONFIGS = ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")


def run_pytest(
    workspace: Path, rel_target: str = ".", limits: RunLimits | None = None, extra: tuple[str, ...] = ()
) -> RunResult:
    """Run pytest on a file or directory of the workspace, without writing a cache there.

    pytest would also read settings and conftest.py files from the folders above the workspace
    (code the crew never saw and the user may not own): the config is the workspace's own or none,
    and conftest files are looked for inside the workspace only. `extra`: more pytest options
    (`-rA`: each test's outcome in the summary, for comparing with the tests before a run).
    """
    root, path = _confine(workspace, rel_target)
    target = path.relative_to(root).as_posix() or "."
    config = next((name for name in PYTEST_CONFIGS if (root / name).is_file()), os.devnull)
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", config]
    argv += ["--rootdir=.", "--confcutdir=.", *extra, target]
    return run_command(root, argv, limits or RunLimits())


@functools.lru_cache(maxsize=1)
def sandbox_capabilities() -> SandboxCapabilities:
    """What this machine really enforces, measured by running a trivial program once."""
    with tempfile.TemporaryDirectory(prefix="localcrew-probe-") as tmp:
        result = run_command(Path(tmp), [sys.executable, "-c", "pass"], RunLimits(wall_s=20))
    got = dict(item.split(":", 1) if ":" in item else (item, "") for item in result.enforced)
    as_root = IS_LINUX and os.geteuid() == 0
    notes: list[str] = []
    if as_root and "uid" not in got:
        notes.append("the program runs as root: no user namespace and no uid to drop to")
    if "processes" not in got:
        notes.append("no process-count limit: needs user namespaces (or root + pids cgroup)")
    if "memory-total" not in got:
        notes.append(
            "the memory limit is per process (no memory cgroup for this user): several processes "
            "may each use it"
        )
    elif got["memory-total"] == "polled":
        notes.append(
            "the memory limit of the whole run is watched, not enforced by the kernel (no memory "
            "cgroup for this user): a fast allocation can pass it for a few milliseconds"
        )
    if "network" not in got:
        notes.append("no network isolation: needs a network namespace")
    if "filesystem" not in got:
        notes.append("files outside the workspace are writable: needs a mount namespace")
    if "staging" not in got:
        notes.append("the program writes the workspace directly: needs a mount namespace")
    if IS_LINUX and "seccomp" not in got:
        notes.append("no seccomp filter: mount, ptrace and namespace calls are not refused")
    if IS_LINUX and "ipc" not in got:
        notes.append("SysV IPC and the hostname are shared with the IDE: needs IPC/UTS namespaces")
    if got.get("tree") != "pid-namespace":
        notes.append("tree kill by process group only: a setsid() child could survive")
    uid = got.get("uid", "").split("-")[-1]
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
        running_as_root=as_root,
        user_namespace=got.get("uid", "").startswith("userns"),
        program_uid=int(uid) if uid.isdigit() else None,
        seccomp="seccomp" in got,
        memory_scope=got.get("memory-total") or "per-process",
        staging="staging" in got,
        ipc_isolation="ipc" in got,
    )


def run_command(workspace: Path, argv: list[str], limits: RunLimits) -> RunResult:
    """Run argv (never through a shell) in `workspace` under `limits`."""
    _sweep_stale_homes()
    run_dir = tempfile.mkdtemp(prefix=f"localcrew-sbx-home-{os.getpid()}-")
    # The program's home, used as it is only where the launcher cannot mount its staging tmpfs
    # over run_dir (then it holds the home and the staging copy).
    os.makedirs(os.path.join(run_dir, STAGE_HOME, "tmp"))
    cgroups: dict[str, str | None] = {"pids": None, "memory": None}
    if IS_LINUX:
        cgroups["pids"] = _cgroup.make_cgroup("pids", {"pids.max": limits.max_processes + EXTRA_TASKS})
        if limits.memory_mb:
            # The staging copy itself is made before the launcher joins, charged elsewhere.
            limit = limits.memory_cap_mb << 20
            cgroups["memory"] = _cgroup.make_cgroup("memory", {"memory.limit_in_bytes|memory.max": limit})
    try:
        return _run(Path(workspace), argv, limits, run_dir, cgroups)
    finally:
        for path in cgroups.values():
            if path is not None:
                _cgroup.remove_cgroup(path)
        shutil.rmtree(run_dir, ignore_errors=True)


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
        if ours and not _cgroup.creator_alive(stale.name, prefix):
            shutil.rmtree(stale, ignore_errors=True)


def _confine(workspace: Path, rel: str) -> tuple[Path, Path]:
    files = WorkspaceFiles(workspace)
    path = files.resolve(rel)
    if not path.exists():
        raise WorkspaceError(f"cannot run {rel!r}: it does not exist")
    return files.root, path


def _program_paths(workspace: str) -> list[str]:
    """Folders the program's Python needs besides its prefix: where the shared libraries this very
    Python has loaded live (a Python outside /usr, under nix, conda or a home) and its import path
    (site-packages, .pth entries). The first sys.path entry is the IDE's own folder (or the
    caller's insert): the program does not need the IDE's code. Home folders are never bound
    whole; the launcher leaves out system folders, which are bound anyway."""
    found: set[str] = set()
    with contextlib.suppress(OSError), open("/proc/self/maps", encoding="utf-8", errors="replace") as fh:
        for line in fh:  # address perms offset device inode [path]
            fields = line.split(maxsplit=5)
            path = fields[5].strip() if len(fields) == 6 else ""
            if path.startswith("/") and ".so" in os.path.basename(path) and not path.endswith("(deleted)"):
                found.add(os.path.dirname(path))
    found.update(p for p in sys.path[1:] if os.path.isabs(p) and os.path.isdir(p))
    homes = set(_user_homes())
    return sorted(p for p in found if p not in homes and not _staging.inside(p, workspace))


def _user_homes() -> list[str]:
    """The real home folders of the user running the IDE (and of the one behind sudo)."""
    import pwd

    uids = [os.getuid()]
    if os.environ.get("SUDO_UID", "").isdigit():
        uids.append(int(os.environ["SUDO_UID"]))
    homes: list[str] = []
    for uid in uids:
        try:
            home = os.path.realpath(pwd.getpwuid(uid).pw_dir)
        except (KeyError, OSError):
            continue
        if home != "/" and os.path.isdir(home) and home not in homes:
            homes.append(home)
    return homes


def _clean_env(run_dir: str) -> dict[str, str]:
    # Nothing from the parent: no API keys, tokens or proxies; the venv's bin first on PATH.
    bin_dir = os.path.dirname(sys.executable)
    home = os.path.join(run_dir, STAGE_HOME)
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


@dataclass
class _Started:
    """A program started, and what the parent keeps to read the launcher's side afterwards."""

    proc: subprocess.Popen
    status_r: int = -1  # the launcher's report pipe (Linux)
    stage_parent: socket.socket | None = None  # the launcher sends its staging copy's fd here
    before: _staging.Manifest | None = None  # the workspace as it was, to compare staging with


@dataclass
class _Pumped:
    """What the program printed and how its run ended, once every process of it is gone."""

    tails: dict[str, _Tail]
    duration: float
    kill_reason: str | None  # "output", "memory" or "time"; None when it exited by itself
    watched_memory: bool


def _run(root: Path, argv: list[str], limits: RunLimits, run_dir: str, cgroups: dict) -> RunResult:
    started = _start(root, argv, limits, run_dir, cgroups)
    pumped = _pump(started.proc, limits, cgroups)
    return _collect(started, pumped, root, argv, limits, cgroups)


def _start(root: Path, argv: list[str], limits: RunLimits, run_dir: str, cgroups: dict) -> _Started:
    env = _clean_env(run_dir)
    if IS_LINUX:
        return _start_launcher(root, argv, limits, run_dir, cgroups, env)
    kwargs: dict = {}
    if os.name == "nt":
        kwargs["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP
    else:
        kwargs["start_new_session"] = True
    return _Started(_spawn(argv, root, env, **kwargs))


def _spawn(command: list[str], root: Path, env: dict[str, str], **kwargs: Any) -> subprocess.Popen:
    """Start `command` (never through a shell) in `root` with no stdin and both outputs piped."""
    pipes = {"stdin": subprocess.DEVNULL, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    return subprocess.Popen(command, cwd=root, env=env, **pipes, **kwargs)


def _start_launcher(
    root: Path, argv: list[str], limits: RunLimits, run_dir: str, cgroups: dict, env: dict[str, str]
) -> _Started:
    """Start the program through the launcher (Linux): namespaces, staging copy, filters."""
    python = [sys.prefix, sys.base_prefix, os.path.dirname(os.path.realpath(sys.executable))]
    bound = _staging.bound_names(str(root), python)
    # What the workspace holds now: the staging copy is compared with it after the run.
    before = _staging.manifest(str(root), bound)
    status_r, status_w = os.pipe()
    stage_parent, stage_child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    config = {
        "argv": argv,
        "memory_bytes": limits.memory_mb * 1024 * 1024 if limits.memory_mb else None,
        "file_bytes": limits.file_mb * 1024 * 1024 if limits.file_mb else None,
        "nproc": limits.max_processes + EXTRA_TASKS,
        "network": limits.network,
        "cgroup": cgroups["pids"],
        "memory_cgroup": cgroups["memory"],
        "status_fd": status_w,
        "stage_socket": stage_child.fileno(),
        "run_dir": run_dir,
        "stage_bytes": limits.stage_mb << 20,
        "write_bytes": limits.write_mb << 20,
        "max_files": limits.max_files,
        "as_root": os.geteuid() == 0,
        "parent_pid": os.getpid(),
        # Where the program's Python lives (a venv under /tmp must stay reachable). Read here:
        # the launcher runs with -S, where a venv's sys.prefix is not set yet (Python 3.11).
        "python": python,
        "libraries": _program_paths(str(root)),
        "bound": sorted(bound),
    }
    launch = [sys.executable, "-I", "-S", LAUNCHER, "--launch"]
    pass_fds = (status_w, stage_child.fileno())
    proc = _spawn([*launch, json.dumps(config)], root, env, start_new_session=True, pass_fds=pass_fds)
    os.close(status_w)
    stage_child.close()
    return _Started(proc, status_r, stage_parent, before)


def _pump(proc: subprocess.Popen, limits: RunLimits, cgroups: dict) -> _Pumped:
    """Read the output into bounded tails and watch the limits until the program ends or one is
    passed; then kill whatever is left of its tree."""
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
    # Without a memory cgroup, RLIMIT_AS holds each process only: watch the tree's total instead.
    watch_memory = IS_LINUX and cgroups["memory"] is None and bool(limits.memory_mb) and _CHILDREN_LISTED
    while True:
        if overflow.is_set():
            kill_reason = "output"
            break
        if limits.stop is not None and limits.stop.is_set():
            kill_reason = "stop"
            break
        if _has_exited(proc):
            break
        if watch_memory and _tree_over_memory(proc.pid, limits.memory_mb << 20):
            kill_reason = "memory"
            break
        now = time.monotonic()
        if now >= deadline:
            kill_reason = "time"
            break
        overflow.wait(min(0.02, deadline - now))
    duration = time.monotonic() - start
    # Always sweep: after a normal exit this only catches leftovers the namespace did not hold.
    _kill_tree(proc, cgroups["pids"], cgroups["memory"])
    proc.wait()
    for reader in readers:
        reader.join(timeout=max(0.5, deadline + 1.0 - time.monotonic()))
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()
    return _Pumped(tails, duration, kill_reason, watch_memory)


def _collect(
    started: _Started, pumped: _Pumped, root: Path, argv: list[str], limits: RunLimits, cgroups: dict
) -> RunResult:
    """The result: exit status and report from the launcher, staging applied back, limits named."""
    report: dict = {}
    status: int | None = None
    if started.status_r >= 0:
        report, status = _launcher_report(started.status_r)
    if pumped.kill_reason is not None:
        exit_code = None
    elif status is not None:
        exit_code = os.waitstatus_to_exitcode(status)
    else:
        exit_code = started.proc.returncode  # no launcher, or it failed itself (its stderr says why)

    applied = _staging.Applied()
    if started.stage_parent is not None and limits.apply_back:
        applied = _apply_staging(started.stage_parent, root, started.before, report, limits)
    elif started.stage_parent is not None:
        started.stage_parent.close()  # the staging copy goes with the run
    _journal(root, applied, staged=isinstance(report.get("staging"), dict))
    if pumped.watched_memory:
        report["memory_watched"] = True
    enforced = _enforced(report)
    stderr_text = pumped.tails["stderr"].text()
    limit_hit = _classify(pumped.kill_reason, exit_code, stderr_text, cgroups, enforced)
    return RunResult(
        command=list(argv),
        exit_code=exit_code,
        stdout_tail=pumped.tails["stdout"].text(),
        stderr_tail=stderr_text,
        duration_s=round(pumped.duration, 3),
        limit_hit=limit_hit,
        network_isolated=bool(report.get("netns")),
        enforced=enforced,
        applied=tuple(applied.written),
        deleted=tuple(applied.deleted),
        refused=tuple(applied.refused),
    )


def _journal(root: Path, applied: _staging.Applied, staged: bool) -> None:
    """Tell the workspace's run in progress what this run applied, so its undo takes back only
    that; unstaged, the program wrote the workspace itself and no journal can say what."""
    changed = [*applied.written, *applied.deleted, *applied.folders]
    if changed or not staged:
        run_snapshot.journal_applied(root, changed, complete=staged, written=applied.written)


def _launcher_report(status_r: int) -> tuple[dict, int | None]:
    """The launcher's report (what held), with what its init added, and the program's wait status."""
    report: dict = {}
    status: int | None = None
    for line in _read_all(status_r).splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if "status" in item:
            status = item["status"]
        else:  # the launcher's report, then what init adds to it
            report = {**report, **item, "notes": report.get("notes", []) + item.get("notes", [])}
    return report, status


def _apply_staging(
    channel: socket.socket, root: Path, before: _staging.Manifest | None, report: dict, limits: RunLimits
) -> _staging.Applied:
    """Apply back what the program wrote to its staging copy; every process of the run is gone."""
    stage_fd = None
    try:
        channel.setblocking(False)
        try:
            _msg, fds, _flags, _addr = socket.recv_fds(channel, 1, 1)
        except (BlockingIOError, OSError):
            fds = []
        if not fds:
            return _staging.Applied()
        stage_fd = fds[0]
        if before is None or not isinstance(report.get("staging"), dict):
            return _staging.Applied()
        try:
            return _staging.apply_back(
                stage_fd, str(root), before, report["staging"], limits.write_mb << 20, limits.max_files
            )
        except OSError as exc:  # the workspace itself went away or was replaced during the run
            return _staging.Applied(refused=[f".: nothing applied, the workspace is unavailable ({exc})"])
    finally:
        channel.close()
        if stage_fd is not None:
            os.close(stage_fd)


_CHILDREN_LISTED = IS_LINUX and os.path.exists(f"/proc/self/task/{os.getpid()}/children")


def _tree_over_memory(root_pid: int, limit: int) -> bool:
    """Whether `root_pid` and all its descendants hold more than `limit` bytes of anonymous and
    shared (shmem) memory.

    Shared anonymous memory (mmap MAP_SHARED|MAP_ANONYMOUS, attached shm) is what "resident -
    shared" missed: four children held 600 MB under a 200 MB limit that way. The resident
    counters (RssAnon + RssShmem, /proc/<pid>/status) cost nothing to read but count a block
    several processes share once per process; only past the limit by them is the proportional
    share (Pss, /proc/<pid>/smaps_rollup, a walk of the page tables: 28 ms for 500 MB) summed.
    """
    pids = _tree_pids(root_pid)
    resident = [_process_memory(pid, "status", ("RssAnon", "RssShmem")) for pid in pids]
    if None not in resident and sum(r or 0 for r in resident) <= limit:
        return False
    shares = [_process_memory(pid, "smaps_rollup", ("Pss_Anon", "Pss_Shmem")) for pid in pids]
    if None in shares:  # a kernel before 5.9: the resident counters decide
        return sum(r or 0 for r in resident) > limit
    return sum(share or 0 for share in shares) > limit


def _tree_pids(root_pid: int) -> list[int]:
    """`root_pid` and its descendants, through /proc/<pid>/task/<tid>/children."""
    stack, seen = [root_pid], []
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.append(pid)
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as fh:
                    stack.extend(int(child) for child in fh.read().split())
        except (OSError, ValueError):
            continue
    return seen


def _process_memory(pid: int, name: str, wanted: tuple[str, ...]) -> int | None:
    """The sum of the `wanted` kB fields of /proc/<pid>/<name>, in bytes: 0 for a process gone,
    None where the file lacks a field."""
    fields: dict[str, int] = {}
    try:
        with open(f"/proc/{pid}/{name}", encoding="ascii") as fh:
            for line in fh:  # "RssAnon:\t  1234 kB"
                key, _, value = line.partition(":")
                if key in wanted:
                    fields[key] = int(value.split()[0]) << 10
    except OSError:
        return 0
    except (ValueError, IndexError):
        return None
    return sum(fields.values()) if len(fields) == len(wanted) else None


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


def _kill_tree(proc: subprocess.Popen, cgroup: str | None, memory_cgroup: str | None = None) -> None:
    if os.name == "nt":
        if proc.poll() is None:
            proc.kill()
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)  # launcher + our init: the PID namespace dies too
    for group in (cgroup, memory_cgroup):
        if group is not None:
            _cgroup.kill_cgroup(group)


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


def _enforced(report: dict) -> tuple[str, ...]:
    """What held in this run, as `kind:how` items, from the launcher's report."""
    has = report.get
    memory, uid = has("memory"), has("uid")
    uid_kind = "userns" if has("userns") else "plain"
    program = has("program") or {}
    held = (
        (True, "time"),
        (True, "output"),
        (memory, "memory:rlimit-as"),
        (memory and has("memory_cgroup"), "memory-total:cgroup"),
        (memory and not has("memory_cgroup") and has("memory_watched"), "memory-total:polled"),
        (has("file_size"), "file size:rlimit-fsize"),
        (has("cgroup"), "processes:cgroup-pids"),
        (not has("cgroup") and has("nproc"), "processes:rlimit-nproc-in-userns"),
        (has("netns"), "network:netns"),
        (has("filesystem"), "filesystem:mount-namespace"),
        (has("new_root"), f"root:{has('new_root')}"),  # pivot, or chroot where the root cannot move
        (has("private_dev"), "dev:private"),
        (isinstance(has("staging"), dict), "staging:copy"),
        (uid is not None and (has("userns") or uid != 0), f"uid:{uid_kind}-{uid}"),
        (program.get("seccomp") and program.get("no_new_privs"), "seccomp:filter"),
        (program.get("bounding_set"), "capabilities:none"),
        (program.get("keyring"), "keyring:own-session"),
        (has("ipcns") and has("utsns"), "ipc:ipc-uts-namespaces"),
        (has("private_proc"), "proc:private"),
        (has("pidns"), "tree:pid-namespace"),
        (not has("pidns") and os.name == "posix", "tree:process-group"),
    )
    return tuple(item for holds, item in held if holds)


_MEMORY_SIGNS = re.compile(r"(?m)^MemoryError\b|Cannot allocate memory|std::bad_alloc|[Oo]ut of memory")
_FILE_SIZE_SIGNS = re.compile(r"File too large")
_PROCESS_SIGNS = re.compile(
    r"Resource temporarily unavailable|can't start new thread|BlockingIOError: \[Errno 11\]"
)


def _classify(
    kill_reason: str | None,
    exit_code: int | None,
    stderr: str,
    cgroups: dict,
    enforced: tuple[str, ...],
) -> str | None:
    # A kernel-enforced limit is the root cause even when the program then ran on until we
    # stopped it (a fork bomb retrying, or spewing tracebacks into the output limit).
    pids_refused = _cgroup.counter(cgroups["pids"], "pids.events", "max") > 0
    memory = cgroups["memory"]
    oom_killed = any(
        _cgroup.counter(memory, name, "oom_kill") > 0 for name in ("memory.oom_control", "memory.events")
    )
    if any(item.startswith("processes") for item in enforced) and (
        pids_refused or _PROCESS_SIGNS.search(stderr)
    ):
        return "processes"
    if any(item.startswith("file size") for item in enforced) and (
        exit_code == -signal.SIGXFSZ or _FILE_SIZE_SIGNS.search(stderr)
    ):
        return "file size"
    # A SIGKILL alone is no sign of our limit: the machine's own OOM killer (memory short under
    # load) or a launcher killed by the kernel read as "failed (memory)" on unchanged files.
    if any(item.startswith("memory") for item in enforced) and (_MEMORY_SIGNS.search(stderr) or oom_killed):
        return "memory"
    return kill_reason
