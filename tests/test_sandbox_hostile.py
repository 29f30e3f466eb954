"""Hostile programs against the sandbox, as root and as an unprivileged user (uid 65534).

Each program tries one escape. Whether it worked is decided here, outside the sandbox, by a
canary: a secret that must not show in its output, a file that must not appear, a host setting
that must not change, a process that must stay alive. The programs' own words only decide the
few cases with nothing to observe from outside (a refused system call).

Every program of a mode runs in one "IDE" process (root, or uid 65534 in a subprocess) that calls
`run_python` for each, so the battery stays fast; that process also carries a secret in its
environment and in its session keyring.

To see that the canaries catch real escapes, point LOCALCREW_SANDBOX_UNDER_TEST at a checkout with an
older sandbox (its tools/ is used instead of this one's). Host settings a broken sandbox changes
(hostname, domain name, core_pattern, /etc/hosts) are put back after the battery.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# Another checkout's tools/ to run the battery against (e.g. an older sandbox, to see the canaries
# catch real escapes); this one's by default.
UNDER_TEST = Path(os.environ.get("LOCALCREW_SANDBOX_UNDER_TEST") or REPO)
NOBODY = 65534
SYSTEM_PYTHON = shutil.which("python3", path="/usr/bin:/bin")
IS_LINUX = sys.platform.startswith("linux")
pytestmark = [
    pytest.mark.skipif(not IS_LINUX, reason="Linux sandbox"),
    pytest.mark.skipif(
        IS_LINUX and os.geteuid() != 0,
        reason="the battery plants canaries as root and drops to uid 65534 itself: only root can",
    ),
]
MODES = ["root", "user"]

PRELUDE = textwrap.dedent(
    """
    import ctypes, json, os, socket, sys, time
    CTX = json.loads(sys.argv[1])
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long

    def attempt(label, fn):
        try:
            print(label, "OK", fn(), flush=True)
        except BaseException as exc:
            print(label, "ERR", type(exc).__name__, exc, flush=True)

    def call(nr, *args):
        got = libc.syscall(nr, *args)
        if got < 0:
            raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
        return got

    def read(path):
        with open(path, "rb") as fh:
            return fh.read(4096)
    """
)


@dataclass
class Ctx:
    """Canaries of one mode: paths, ports and keys a program is told, secrets it is not."""

    mode: str
    base: Path
    secret: str = field(default_factory=lambda: f"lcsecret-{uuid.uuid4().hex}")
    data: dict = field(default_factory=dict)  # what programs get as argv[1]
    accepted: list = field(default_factory=list)
    closers: list[Callable[[], None]] = field(default_factory=list)

    @property
    def uid(self) -> int:
        return 0 if self.mode == "root" else NOBODY


@dataclass
class Case:
    name: str
    kind: str  # the class counted in the table
    code: str
    contained: Callable[[Ctx, dict, Path], bool]
    setup: Callable[[Ctx, Path], None] | None = None
    limits: dict = field(default_factory=dict)


def secret_hidden(ctx: Ctx, result: dict, ws: Path) -> bool:
    return ctx.secret not in result["stdout"] + result["stderr"]


def said_err(*labels: str) -> Callable[[Ctx, dict, Path], bool]:
    """For calls with nothing to see from outside: the program's own line says it failed."""

    def check(ctx: Ctx, result: dict, ws: Path) -> bool:
        lines = result["stdout"].splitlines()
        return all(any(line.startswith(f"{label} ERR") for line in lines) for label in labels)

    return check


def both(*checks: Callable[[Ctx, dict, Path], bool]) -> Callable[[Ctx, dict, Path], bool]:
    return lambda ctx, result, ws: all(check(ctx, result, ws) for check in checks)


def missing(*rels: str) -> Callable[[Ctx, dict, Path], bool]:
    def check(ctx: Ctx, result: dict, ws: Path) -> bool:
        return all(not os.path.lexists(ws / rel) for rel in rels)

    return check


def outside_missing(key: str) -> Callable[[Ctx, dict, Path], bool]:
    return lambda ctx, result, ws: not os.path.lexists(ctx.data[key])


def git_workspace(ctx: Ctx, ws: Path) -> None:
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    (ws / "a.py").write_text("x = 1\n")


def file_named(rel: str, text: str) -> Callable[[Ctx, Path], None]:
    def setup(ctx: Ctx, ws: Path) -> None:
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(text)

    return setup


def unchanged_file(rel: str, text: str) -> Callable[[Ctx, dict, Path], bool]:
    def check(ctx: Ctx, result: dict, ws: Path) -> bool:
        path = ws / rel
        return not path.is_symlink() and path.is_file() and path.read_text() == text

    return check


def host_file_unchanged(path: str) -> Callable[[Ctx, dict, Path], bool]:
    before = Path(path).read_bytes() if Path(path).exists() else b""
    return lambda ctx, result, ws: (Path(path).read_bytes() if Path(path).exists() else b"") == before


def victim_untouched(ctx: Ctx, result: dict, ws: Path) -> bool:
    pid = ctx.data["victim_pid"]
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False  # it was killed
    tracer = next(line for line in status.splitlines() if line.startswith("TracerPid:"))
    return tracer.split()[1] == "0" and "State:\tZ" not in status


def nothing_accepted(ctx: Ctx, result: dict, ws: Path) -> bool:
    return not ctx.accepted


def limit_hit(*names: str) -> Callable[[Ctx, dict, Path], bool]:
    return lambda ctx, result, ws: result["limit_hit"] in names


def applied_within(max_bytes: int) -> Callable[[Ctx, dict, Path], bool]:
    def check(ctx: Ctx, result: dict, ws: Path) -> bool:
        total = sum(p.stat().st_size for p in ws.rglob("*") if p.is_file() and not p.is_symlink())
        return total <= max_bytes

    return check


def held_through_at_most(count: int) -> Callable[[Ctx, dict, Path], bool]:
    """At most `count` children kept their block for their whole hold ("done"). Under a limit on
    the whole tree a second child's allocation gets the OOM killer, which may kill the child that
    already holds (the larger), so a second "held" line is no escape; holding through is."""

    def check(ctx: Ctx, result: dict, ws: Path) -> bool:
        done = [line for line in result["stdout"].splitlines() if line.startswith("done")]
        return len(done) <= count

    return check


def git_runs_nothing(*rels: str) -> Callable[[Ctx, dict, Path], bool]:
    """The user's `git status` in each folder (as the IDE's user, who owns what was applied back)
    runs no fsmonitor the program planted, and finds no repository there."""

    def check(ctx: Ctx, result: dict, ws: Path) -> bool:
        marker = Path(ctx.data["out_dir"], "fsmonitor-ran")
        env = {"PATH": "/usr/bin:/bin", "HOME": str(ctx.base), "GIT_CEILING_DIRECTORIES": str(ws.parent)}
        found = False
        for rel in rels:
            if not (ws / rel).is_dir() or shutil.which("git") is None:
                continue
            run = dict(cwd=ws / rel, env=env, capture_output=True, text=True, timeout=20)
            subprocess.run(["git", "status"], user=ctx.uid, group=ctx.uid, **run)
            found |= subprocess.run(["git", "rev-parse", "--git-dir"], user=ctx.uid, **run).returncode == 0
        return not found and not marker.exists()

    return check


def dev_has_only(*names: str) -> Callable[[Ctx, dict, Path], bool]:
    """The program's /dev (it prints its listing as `dev [...]`) holds nothing else."""

    def check(ctx: Ctx, result: dict, ws: Path) -> bool:
        line = next((x for x in result["stdout"].splitlines() if x.startswith("dev ")), "dev []")
        return set(json.loads(line[4:])) <= set(names)

    return check


def terminal_untouched(ctx: Ctx, result: dict, ws: Path) -> bool:
    """Nothing the program wrote reached the user's terminal."""
    return b"lc-pwned" not in ctx.data["pty_output"]()


def held_at_most_mb(limit_mb: int) -> Callable[[Ctx, dict, Path], bool]:
    """The program's `held N` lines (MB held at once) never passed `limit_mb`."""

    def check(ctx: Ctx, result: dict, ws: Path) -> bool:
        held = [int(x.split()[1]) for x in result["stdout"].splitlines() if x.startswith("held ")]
        return max(held, default=0) <= limit_mb

    return check


def refused_as_not_applied(*rels: str) -> Callable[[Ctx, dict, Path], bool]:
    """Each path is named in the run's report as made (or deleted) by the program, not applied."""

    def check(ctx: Ctx, result: dict, ws: Path) -> bool:
        said = [item for item in result["refused"] if "by the program, not applied" in item]
        return all(any(item.startswith((rel + ":", rel + "/:")) for item in said) for rel in rels)

    return check


def tool_folders(ctx: Ctx, ws: Path) -> None:
    """The user's own environments: a venv named env/ (found by its pyvenv.cfg), a venv nested in
    a package, and a nested node_modules."""
    for venv in ("env", "pkg/.venv"):
        (ws / venv / "lib/python3.11/site-packages").mkdir(parents=True)
        (ws / venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (ws / "web/node_modules/left").mkdir(parents=True)
    (ws / "web/node_modules/left/index.js").write_text("ok()\n")
    (ws / "pkg/mod.py").write_text("x = 1\n")


def module_and_main(ctx: Ctx, ws: Path) -> None:
    (ws / "util.py").write_text("VALUE = 1\n")
    (ws / "main.py").write_text("import util\nprint(util.VALUE)\n")
    (ws / "pkg").mkdir()
    (ws / "pkg/__init__.py").write_text("")


def dated_file(ctx: Ctx, ws: Path) -> None:
    (ws / "same.txt").write_text("abc\n")
    os.utime(ws / "same.txt", (978_307_200, 978_307_200))  # 2001


def dated_when_applied(ctx: Ctx, result: dict, ws: Path) -> bool:
    """Applied files carry the time they were applied, whatever date the program gave them."""
    same, future = (ws / "same.txt").stat(), (ws / "future.txt").stat()
    recent = ws.stat().st_mtime - 3600
    content = (ws / "same.txt").read_text()
    return content == "xyz\n" and same.st_mtime > recent and future.st_mtime < recent + 7200


def bytecode_ignored(ctx: Ctx, result: dict, ws: Path) -> bool:
    """The user's next `python main.py` on the host runs util.py, not the program's bytecode."""
    argv = [sys.executable, "-B", "main.py"]
    run = subprocess.run(argv, cwd=ws, capture_output=True, text=True, timeout=60)
    return run.stdout.strip() == "1"


MEMORY_LIMITS = {"memory_mb": 200, "write_mb": 16, "file_mb": 64, "wall_s": 15}
# What a memory cgroup allows on top of memory_mb: the files the program may write (in memory).
MEMORY_CEILING_MB = 200 + 16 + 64 + 4

CASES: list[Case] = [
    # -- secrets ---------------------------------------------------------------------------
    Case("read /etc/shadow", "secrets", "attempt('shadow', lambda: read('/etc/shadow'))",
         lambda ctx, r, ws: b"root:".decode() not in r["stdout"]),
    Case("read a key in the IDE user's ~/.ssh", "secrets", "attempt('ssh', lambda: read(CTX['ssh_key']))",
         secret_hidden),
    Case("read another project's /var/tmp/other/.env", "secrets",
         "attempt('env', lambda: read(CTX['var_tmp_env']))", secret_hidden),
    Case("read a file under the host's /tmp", "secrets", "attempt('tmp', lambda: read(CTX['tmp_secret']))",
         secret_hidden),
    Case("read the IDE's environment through /proc", "secrets", """
         for pid in [os.getppid(), 1, *[p for p in os.listdir('/proc') if p.isdigit()]]:
             attempt(f'environ {pid}', lambda: read(f'/proc/{pid}/environ'))
             attempt(f'cmdline {pid}', lambda: read(f'/proc/{pid}/cmdline'))
         attempt('victim', lambda: read(f"/proc/{CTX['victim_pid']}/environ"))
         """, secret_hidden),
    Case("read host POSIX shared memory /dev/shm", "secrets", "attempt('shm', lambda: read(CTX['dev_shm']))",
         secret_hidden),
    Case("read another project's .env outside /tmp, /var/tmp and the homes", "secrets",
         "attempt('srv', lambda: read(CTX['srv_env'])); attempt('list', lambda: os.listdir(CTX['srv_dir']))",
         both(secret_hidden, said_err("srv", "list"))),
    # -- writes outside --------------------------------------------------------------------
    Case("write next to the workspace", "writes outside",
         "attempt('w', lambda: open('../escaped', 'w').write('x'))",
         lambda ctx, r, ws: not (ws.parent / "escaped").exists()),
    Case("write an outside folder the user owns", "writes outside",
         "attempt('w', lambda: open(CTX['out_dir'] + '/pwned', 'w').write('x'))",
         lambda ctx, r, ws: not Path(ctx.data["out_dir"], "pwned").exists()),
    Case("write the host's /tmp and /var/tmp", "writes outside", """
         attempt('tmp', lambda: open(CTX['tmp_target'], 'w').write('x'))
         attempt('vartmp', lambda: open(CTX['var_tmp_target'], 'w').write('x'))
         """, both(outside_missing("tmp_target"), outside_missing("var_tmp_target"))),
    Case("write through a symlink made in the workspace", "writes outside", """
         os.symlink(CTX['out_dir'] + '/via_link', 'link')
         attempt('w', lambda: open('link', 'w').write('x'))
         """, both(lambda ctx, r, ws: not Path(ctx.data["out_dir"], "via_link").exists(), missing("link"))),
    Case("write through a symlink placed over a folder", "writes outside", """
         import shutil
         shutil.rmtree('pkg'); os.symlink(CTX['out_dir'], 'pkg')
         attempt('w', lambda: open('pkg/planted.py', 'w').write('x'))
         """, both(lambda ctx, r, ws: not Path(ctx.data["out_dir"], "planted.py").exists(),
                   unchanged_file("pkg/mod.py", "y = 2\n")),
         setup=file_named("pkg/mod.py", "y = 2\n")),
    Case("replace a workspace symlink to outside by a folder", "writes outside", """
         os.remove('out'); os.mkdir('out')
         open('out/pwned', 'w').write('x')
         """, both(lambda ctx, r, ws: not Path(ctx.data["out_dir"], "pwned").exists(),
                   lambda ctx, r, ws: (ws / "out").is_symlink()),
         setup=lambda ctx, ws: os.symlink(ctx.data["out_dir"], ws / "out")),
    Case("hard link to an outside file", "writes outside", """
         attempt('link', lambda: os.link(CTX['out_file'], 'hl'))
         attempt('link2', lambda: os.link('/etc/passwd', 'pw'))
         """, both(missing("hl", "pw"), host_file_unchanged("/etc/passwd"))),
    Case("hard link between two workspace files", "writes outside", """
         os.link('a.txt', 'b.txt')
         open('b.txt', 'a').write('more')
         """, both(missing("b.txt"), unchanged_file("a.txt", "a\n")), setup=file_named("a.txt", "a\n")),
    Case("plant .git/config with core.fsmonitor (no .git yet)", "writes outside", """
         os.makedirs('.git/hooks')
         open('.git/HEAD', 'w').write('ref: refs/heads/main\\n')
         open('.git/config', 'w').write('[core]\\n\\tfsmonitor = touch ' + CTX['out_dir'] + '/fsmonitor\\n')
         open('.git/hooks/pre-commit', 'w').write('#!/bin/sh\\ntouch /tmp/x\\n')
         """, missing(".git")),
    Case("plant a .git file pointing elsewhere", "writes outside",
         "open('.git', 'w').write('gitdir: ' + CTX['out_dir'] + '\\n')", missing(".git")),
    Case("plant a .git symlink", "writes outside", "os.symlink(CTX['out_dir'], '.git')", missing(".git")),
    Case("plant a nested sub/.git", "writes outside", """
         os.makedirs('sub/.git')
         open('sub/.git/config', 'w').write('[core]\\n\\tfsmonitor = touch /tmp/x\\n')
         """, missing("sub/.git")),
    Case("write hooks and config into an existing .git", "writes outside", """
         attempt('hook', lambda: open('.git/hooks/pre-commit', 'w').write('#!/bin/sh\\nid\\n'))
         attempt('config', lambda: open('.git/config', 'a').write('[core]\\n\\tfsmonitor = id\\n'))
         attempt('rm', lambda: os.rename('.git', 'old_git'))
         """, both(missing(".git/hooks/pre-commit", "old_git"),
                   lambda ctx, r, ws: "fsmonitor" not in (ws / ".git/config").read_text()),
         setup=git_workspace),
    Case("write LocalCrew's undo folder", "writes outside", """
         attempt('w', lambda: open('.localcrew/tampered', 'w').write('x'))
         """, missing(".localcrew/tampered"), setup=file_named(".localcrew/keep", "k")),
    # -- host tools that run what they find ---------------------------------------------------
    Case("a git repository layout at the root and in a subfolder", "host tools on discovery", """
         for where in ['.', 'sub', 'sub/deeper']:
             os.makedirs(where + '/objects', exist_ok=True); os.makedirs(where + '/refs/heads', exist_ok=True)
             open(where + '/HEAD', 'w').write('ref: refs/heads/main\\n')
             monitor = 'touch ' + CTX['out_dir'] + '/fsmonitor-ran'
             open(where + '/config', 'w').write('[core]\\n\\tfsmonitor = ' + monitor + '\\n')
         os.makedirs('wt/x', exist_ok=True)
         open('wt/x/HEAD', 'w').write('0' * 40 + '\\n'); open('wt/x/commondir', 'w').write('../../sub\\n')
         """, both(git_runs_nothing(".", "sub", "sub/deeper", "wt/x"),
                   missing("HEAD", "sub/HEAD", "sub/config", "wt/x/HEAD"))),
    Case("a git layout completed around files the workspace has", "host tools on discovery", """
         open('lib/HEAD', 'w').write('ref: refs/heads/main\\n')
         monitor = 'touch ' + CTX['out_dir'] + '/fsmonitor-ran'
         open('lib/config', 'w').write('[core]\\n\\tfsmonitor = ' + monitor + '\\n')
         """, both(git_runs_nothing("lib"), missing("lib/HEAD", "lib/config")),
         setup=lambda ctx, ws: [(ws / "lib" / d).mkdir(parents=True) for d in ("objects", "refs")]),
    Case("editor and shell files run on opening the folder", "host tools on discovery", """
         os.makedirs('.vscode')
         open('.vscode/tasks.json', 'w').write('{"tasks": [{"runOptions": {"runOn": "folderOpen"}}]}')
         open('.vscode/settings.json', 'w').write('{"git.path": "./evil"}')
         os.makedirs('sub/.idea/runConfigurations'); open('sub/.idea/workspace.xml', 'w').write('<x/>')
         open('.envrc', 'w').write('touch /tmp/pwned\\n')
         os.makedirs('.hg'); open('.hg/hgrc', 'w').write('[hooks]\\npre-status = touch /tmp/pwned\\n')
         """, missing(".vscode", "sub/.idea", ".envrc", ".hg")),
    # -- devices and sockets ---------------------------------------------------------------
    Case("the user's terminal and the host's devices", "devices and sockets", """
         print('dev', json.dumps(sorted(os.listdir('/dev'))))
         def tty():
             fd = os.open(CTX['pts'], os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
             os.write(fd, b'lc-pwned\\n'); time.sleep(0.2)
             return os.read(fd, 200)
         attempt('pts', tty)
         for name in ['vsock', 'kvm', 'fuse', 'net/tun', 'console', 'tty', 'ptmx', 'vda', 'mem']:
             attempt(name, lambda: os.close(os.open('/dev/' + name, os.O_RDWR | os.O_NONBLOCK)))
         """, both(secret_hidden, terminal_untouched,
                   dev_has_only("null", "zero", "full", "random", "urandom", "fd", "stdin", "stdout",
                                "stderr", "shm"))),
    Case("AF_VSOCK to the hypervisor, netlink, packet and crypto sockets", "devices and sockets", """
         attempt('vsock', lambda: socket.socket(40, socket.SOCK_STREAM))
         attempt('vsock-host', lambda: socket.socket(40, socket.SOCK_STREAM).connect((2, 1024)))
         attempt('netlink', lambda: socket.socket(16, socket.SOCK_RAW, 0))
         attempt('packet', lambda: socket.socket(17, socket.SOCK_DGRAM, 0))
         attempt('alg', lambda: socket.socket(38, socket.SOCK_SEQPACKET, 0))
         attempt('pair', lambda: socket.socketpair(40, socket.SOCK_STREAM))
         """, said_err("vsock", "vsock-host", "netlink", "packet", "alg", "pair")),
    # -- network ---------------------------------------------------------------------------
    Case("TCP to a server on the host's loopback", "network",
         "attempt('tcp', lambda: socket.create_connection(('127.0.0.1', CTX['tcp_port']), timeout=1))",
         nothing_accepted),
    Case("UDP to the host's loopback", "network", """
         s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
         attempt('udp', lambda: s.sendto(b'ping', ('127.0.0.1', CTX['udp_port'])))
         time.sleep(0.2)
         """, nothing_accepted),
    Case("an abstract unix socket of the host", "network", """
         s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
         attempt('abstract', lambda: s.connect('\\0' + CTX['abstract']))
         """, nothing_accepted),
    Case("the internet", "network",
         "attempt('inet', lambda: socket.create_connection(('1.1.1.1', 53), timeout=2))", said_err("inet")),
    # -- resources -------------------------------------------------------------------------
    Case("fork bomb", "resources", "import itertools\nfor _ in itertools.count(): os.fork()",
         limit_hit("processes", "time"), limits={"wall_s": 5, "max_processes": 16}),
    Case("4 processes x 150 MB under a 200 MB limit", "resources", """
         r, w = os.pipe()
         for _ in range(4):
             if os.fork() == 0:
                 try:
                     block = bytearray(150 << 20)
                     for i in range(0, len(block), 4096): block[i] = 1
                     os.write(w, b'held\\n'); time.sleep(3)
                     os.write(w, b'done\\n')
                 finally:
                     os._exit(0)
         os.close(w)
         end = time.time() + 6
         while time.time() < end:
             line = os.read(r, 5)
             if not line: break
             print(line.decode().strip(), flush=True)
         """, held_through_at_most(1), limits={"memory_mb": 200, "write_mb": 16, "wall_s": 15}),
    Case("children holding shared anonymous memory", "resources", """
         import mmap
         r, w = os.pipe()
         for _ in range(4):
             if os.fork() == 0:
                 try:
                     block = mmap.mmap(-1, 150 << 20, flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)
                     for i in range(0, len(block), 4096): block[i] = 1
                     os.write(w, b'held\\n'); time.sleep(3)
                     os.write(w, b'done\\n')
                 finally:
                     os._exit(0)
         os.close(w)
         end = time.time() + 6
         while time.time() < end:
             line = os.read(r, 5)
             if not line: break
             print(line.decode().strip(), flush=True)
         """, held_through_at_most(1), limits={"memory_mb": 200, "write_mb": 16, "wall_s": 15}),
    Case("SysV segments and memfds nobody maps", "resources", """
         import mmap
         libc.shmat.restype = ctypes.c_void_p
         held = 0
         def segment():
             global held
             shm = libc.shmget(0, 60 << 20, 0o1000 | 0o600)
             if shm < 0: raise OSError(ctypes.get_errno(), 'shmget')
             addr = libc.shmat(shm, None, 0)
             ctypes.memset(addr, 1, 60 << 20); libc.shmdt(ctypes.c_void_p(addr))
             held += 60
         def memfd():
             global held
             fd = os.memfd_create('x')
             for _ in range(60): os.write(fd, b'x' * (1 << 20))
             held += 60; FDS.append(fd)
         FDS = []
         for i in range(6):
             attempt('shm', segment); print('held', held, flush=True)
         for i in range(6):
             attempt('memfd', memfd); print('held', held, flush=True)
         time.sleep(1)
         """, held_at_most_mb(MEMORY_CEILING_MB), limits=MEMORY_LIMITS),
    Case("fill the disk with files", "resources", """
         n = 0
         try:
             while True:
                 with open(f'big{n}.bin', 'wb') as fh: fh.write(os.urandom(1 << 20) * 8)
                 n += 1
         except OSError as exc:
             print('stopped', n, exc)
         """, applied_within(40 << 20), limits={"write_mb": 32, "file_mb": 16, "wall_s": 20}),
    Case("fill /dev/shm, /tmp and home", "resources", """
         for d in ['/dev/shm', os.environ['HOME'], '/tmp', '/var/tmp']:
             try:
                 with open(d + '/fill', 'wb') as fh:
                     for _ in range(512): fh.write(b'x' * (1 << 20))
             except OSError as exc:
                 print(d, exc)
         """, lambda ctx, r, ws: r["stdout"].count("Errno") == 4,
         limits={"write_mb": 32, "file_mb": 16, "wall_s": 20}),
    Case("a million empty files", "resources", """
         n = 0
         try:
             while n < 1_000_000:
                 open(f'f{n}', 'w').close(); n += 1
         except OSError as exc:
             print('stopped', n, exc)
         """, lambda ctx, r, ws: len(list(ws.iterdir())) <= 2001, limits={"max_files": 2000, "wall_s": 20}),
    Case("folders nested 1,500 deep", "resources", """
         depth = 0
         try:
             for _ in range(1500):
                 os.mkdir('d'); os.chdir('d'); depth += 1
         except OSError as exc:
             print('stopped', depth, exc)
         print('depth', depth)
         """, lambda ctx, r, ws: r["exit_code"] == 0 and sum(1 for _ in ws.rglob("*")) < 200,
         limits={"max_files": 5000}),
    # -- signals / ptrace ------------------------------------------------------------------
    Case("kill the IDE and a process of the same user", "signals/ptrace", """
         import signal
         attempt('ppid', lambda: os.kill(os.getppid(), signal.SIGKILL))
         attempt('victim', lambda: os.kill(CTX['victim_pid'], signal.SIGKILL))
         attempt('all', lambda: os.kill(-1, signal.SIGTERM))
         """, victim_untouched),
    Case("ptrace attach to a process of the same user", "signals/ptrace", """
         attempt('ptrace', lambda: call(CTX['nr']['ptrace'], 16, CTX['victim_pid'], 0, 0))
         time.sleep(0.3)
         """, both(victim_untouched, said_err("ptrace"))),
    Case("write the IDE's memory through /proc/<pid>/mem", "signals/ptrace", """
         attempt('mem', lambda: open(f"/proc/{CTX['victim_pid']}/mem", 'r+b'))
         attempt('vm', lambda: call(CTX['nr']['process_vm_readv'], CTX['victim_pid'], 0, 0, 0, 0, 0))
         """, both(victim_untouched, said_err("mem", "vm"))),
    # -- leftovers the IDE reads later -----------------------------------------------------
    Case("a FIFO where the IDE reads", "leftovers", "os.mkfifo('notes.txt')", missing("notes.txt")),
    Case("a symlink swapped in place of a written file", "leftovers", """
         open('report.txt', 'w').write('new')
         os.remove('report.txt'); os.symlink('/etc/shadow', 'report.txt')
         """, unchanged_file("report.txt", "old\n"), setup=file_named("report.txt", "old\n")),
    Case("a symlink to the home folder", "leftovers", "os.symlink(os.path.expanduser('~'), 'home')",
         missing("home")),
    Case("a unix socket and a device node", "leftovers", """
         s = socket.socket(socket.AF_UNIX); s.bind('sock')
         attempt('mknod', lambda: os.mknod('disk', 0o600 | 0o060000, os.makedev(8, 0)))
         """, missing("sock", "disk")),
    Case("a setuid file", "leftovers", "open('suid', 'w').write('x'); os.chmod('suid', 0o6755)",
         lambda ctx, r, ws: not (ws / "suid").exists() or not (ws / "suid").stat().st_mode & 0o6000),
    # -- host-wide settings ----------------------------------------------------------------
    Case("sethostname", "host settings", """
         attempt('sethostname', lambda: socket.sethostname('pwned-by-sandbox'))
         attempt('proc', lambda: open('/proc/sys/kernel/hostname', 'w').write('pwned-by-sandbox'))
         """, lambda ctx, r, ws: socket.gethostname() == ctx.data["hostname"]),
    Case("core_pattern", "host settings",
         "attempt('core', lambda: open('/proc/sys/kernel/core_pattern', 'w').write('|/tmp/pwn'))",
         host_file_unchanged("/proc/sys/kernel/core_pattern")),
    Case("/etc/hosts and a sysctl", "host settings", """
         attempt('hosts', lambda: open('/etc/hosts', 'a').write('1.2.3.4 pwned\\n'))
         attempt('sysctl', lambda: open('/proc/sys/kernel/domainname', 'w').write('pwned'))
         """, both(host_file_unchanged("/etc/hosts"), host_file_unchanged("/proc/sys/kernel/domainname"))),
    # -- IPC -------------------------------------------------------------------------------
    Case("SysV shared memory of another process", "IPC", """
         libc.shmat.restype = ctypes.c_void_p
         shm = libc.shmget(CTX['shm_key'], 0, 0)
         print('shmget', shm)
         if shm >= 0:
             addr = libc.shmat(shm, None, 0)
             print('read', ctypes.string_at(addr, 64))
         """, secret_hidden),
    Case("SysV message queue of another process", "IPC", """
         q = libc.msgget(CTX['msg_key'], 0)
         print('msgget', q)
         if q >= 0:
             buf = ctypes.create_string_buffer(256)
             n = libc.msgrcv(q, buf, 200, 0, 0o4000)
             print('read', buf.raw[8:8 + max(n, 0)])
         """, both(secret_hidden, lambda ctx, r, ws: ctx.data["msg_left"]())),
    Case("the IDE's session keyring", "IPC", """
         attempt('keys', lambda: read('/proc/keys'))
         for line in open('/proc/keys').read().splitlines():
             if CTX['key_desc'] in line:
                 buf = ctypes.create_string_buffer(256)
                 serial = int(line.split()[0], 16)
                 attempt('read', lambda: (call(CTX['nr']['keyctl'], 11, serial, buf, 256), buf.raw))
         attempt('search', lambda: call(CTX['nr']['request_key'], b'user', CTX['key_desc'].encode(), None, 0))
         """, both(secret_hidden, said_err("search"))),
    # -- mounts and namespaces -------------------------------------------------------------
    Case("umount the /tmp cover", "mounts/namespaces", """
         attempt('umount', lambda: call(CTX['nr']['umount2'], b'/tmp', 2))
         attempt('read', lambda: read(CTX['tmp_secret']))
         """, both(secret_hidden, said_err("umount"))),
    Case("remount / read-write", "mounts/namespaces", """
         attempt('remount', lambda: call(CTX['nr']['mount'], None, b'/', None, 0x20, None))
         attempt('w', lambda: open(CTX['var_tmp_target'] + '.remount', 'w').write('x'))
         """, both(lambda ctx, r, ws: not os.path.exists(ctx.data["var_tmp_target"] + ".remount"),
                   said_err("remount"))),
    Case("a new user namespace, then umount", "mounts/namespaces", """
         attempt('unshare', lambda: call(CTX['nr']['unshare'], 0x10000000 | 0x00020000))
         attempt('umount', lambda: call(CTX['nr']['umount2'], b'/tmp', 2))
         attempt('read', lambda: read(CTX['tmp_secret']))
         def clone_userns():  # fork-like: same stack, copy on write; the child leaves at once
             pid = call(CTX['nr']['clone'], 0x10000000 | 17, 0, 0, 0, 0)
             if pid == 0:
                 os._exit(0)
             return os.waitpid(pid, 0)
         attempt('clone', clone_userns)
         attempt('clone3', lambda: call(CTX['nr']['clone3'], None, 0))
         """, both(secret_hidden, said_err("unshare", "clone", "clone3"))),
    Case("setns into the IDE's namespaces", "mounts/namespaces", """
         for pid in [os.getppid(), 1, CTX['victim_pid']]:
             for ns in ['mnt', 'net', 'user']:
                 def enter(pid=pid, ns=ns):
                     fd = os.open(f'/proc/{pid}/ns/{ns}', os.O_RDONLY)
                     return call(CTX['nr']['setns'], fd, 0)
                 attempt(f'setns {pid} {ns}', enter)
         attempt('read', lambda: read(CTX['tmp_secret']))
         """, both(secret_hidden, lambda ctx, r, ws: " OK " not in r["stdout"].replace("read OK", ""))),
    Case("open_by_handle_at", "mounts/namespaces", """
         buf = ctypes.create_string_buffer(128)
         ctypes.memmove(buf, (128).to_bytes(4, 'little'), 4)
         mount_id = ctypes.c_int()
         nr = CTX['nr']
         at = ctypes.byref(mount_id)
         attempt('name', lambda: call(nr['name_to_handle_at'], -100, b'/etc/passwd', buf, at, 0))
         attempt('open', lambda: call(nr['open_by_handle_at'], os.open('/', os.O_RDONLY), buf, 0))
         """, said_err("name", "open")),
    Case("mount a fresh tmpfs or proc", "mounts/namespaces", """
         attempt('tmpfs', lambda: call(CTX['nr']['mount'], b'none', b'/mnt', b'tmpfs', 0, None))
         attempt('fsopen', lambda: call(CTX['nr']['fsopen'], b'tmpfs', 0))
         attempt('chroot', lambda: call(CTX['nr']['chroot'], b'/tmp'))
         """, said_err("tmpfs", "fsopen", "chroot")),
    Case("bpf, perf_event_open, userfaultfd, modules", "mounts/namespaces", """
         attempt('bpf', lambda: call(CTX['nr']['bpf'], 0, None, 0))
         attempt('perf', lambda: call(CTX['nr']['perf_event_open'], None, 0, -1, -1, 0))
         attempt('uffd', lambda: call(CTX['nr']['userfaultfd'], 0))
         attempt('module', lambda: call(CTX['nr']['finit_module'], 0, b'', 0))
         """, said_err("bpf", "uffd", "module")),
    # -- what Undo could not take back (issue 57) --------------------------------------------
    Case("bytecode planted beside an unchanged module", "undo cannot take back", """
         import importlib._bootstrap_external as ext
         def plant(source_py, folder):
             st = os.stat(source_py)
             code = compile('VALUE = "pwned"\\n', source_py, 'exec')
             os.makedirs(folder, exist_ok=True)
             name = os.path.basename(source_py)[:-3] + '.' + sys.implementation.cache_tag + '.pyc'
             with open(os.path.join(folder, name), 'wb') as fh:
                 fh.write(ext._code_to_timestamp_pyc(code, st.st_mtime, st.st_size))
         plant('util.py', '__pycache__'); plant('pkg/__init__.py', 'pkg/__pycache__')
         open('util.pyc', 'wb').write(b'x')
         """, both(bytecode_ignored, missing("__pycache__", "pkg/__pycache__", "util.pyc"),
                   refused_as_not_applied("__pycache__/util." + sys.implementation.cache_tag + ".pyc",
                                          "util.pyc")),
         setup=module_and_main),
    Case(".pth files and the user's environments at any depth", "undo cannot take back", """
         pth = 'import os; open("/tmp/lc-pth-ran", "w")\\n'
         open('env/lib/python3.11/site-packages/evil.pth', 'w').write(pth)
         open('env/lib/python3.11/site-packages/sitecustomize.py', 'w').write(pth)
         open('pkg/.venv/lib/python3.11/site-packages/evil.pth', 'w').write(pth)
         open('web/node_modules/left/index.js', 'w').write('evil()\\n')
         os.makedirs('lib/site-packages'); open('lib/site-packages/sitecustomize.py', 'w').write(pth)
         open('top.pth', 'w').write(pth)
         os.remove('pkg/mod.py')
         os.remove('env/pyvenv.cfg')
         """, both(missing("env/lib/python3.11/site-packages/evil.pth", "top.pth", "lib/site-packages",
                           "env/lib/python3.11/site-packages/sitecustomize.py",
                           "pkg/.venv/lib/python3.11/site-packages/evil.pth"),
                   unchanged_file("web/node_modules/left/index.js", "ok()\n"),
                   unchanged_file("env/pyvenv.cfg", "home = /usr/bin\n"), missing("pkg/mod.py"),
                   refused_as_not_applied("top.pth", "env/lib/python3.11/site-packages/evil.pth",
                                          "web/node_modules/left/index.js", "env/pyvenv.cfg")),
         setup=tool_folders),
    Case("files host tools run on discovery, by a rule and not a list", "host tools on discovery", """
         files = ['.pdbrc', '.pre-commit-config.yaml', '.devcontainer/devcontainer.json', '.mcp.json',
                  '.cursor/mcp.json', '.nvim.lua', '.exrc', '.dir-locals.el', '.jj/repo/config.toml',
                  '.github/workflows/ci.yml', '.svn/entries', '.bzr/branch/branch.conf', 'sub/.pdbrc']
         for rel in files:
             os.makedirs(os.path.dirname(rel) or '.', exist_ok=True)
             open(rel, 'w').write('!touch /tmp/lc-pwned\\n')
         """, both(missing(".pdbrc", ".pre-commit-config.yaml", ".devcontainer", ".mcp.json", ".cursor",
                           ".nvim.lua", ".exrc", ".dir-locals.el", ".jj", ".github", ".svn", ".bzr",
                           "sub/.pdbrc"),
                   refused_as_not_applied(".pdbrc", ".github", ".github/workflows/ci.yml", "sub/.pdbrc"))),
    Case("applied files dated by the program", "undo cannot take back", """
         open('same.txt', 'w').write('xyz\\n'); os.utime('same.txt', (978307200, 978307200))
         open('future.txt', 'w').write('later\\n'); os.utime('future.txt', (4102444800, 4102444800))
         """, dated_when_applied, setup=dated_file),
    Case("io_uring and memfd_secret", "mounts/namespaces", """
         params = ctypes.create_string_buffer(120)  # struct io_uring_params, zeroed
         attempt('uring', lambda: call(425, 8, params))
         attempt('secret', lambda: call(447, 0))
         """, said_err("uring", "secret")),
]  # fmt: skip

HOST_SETTINGS = (
    "/proc/sys/kernel/hostname",
    "/proc/sys/kernel/domainname",
    "/proc/sys/kernel/core_pattern",
    "/etc/hosts",
)
NR = {
    "x86_64": {
        "ptrace": 101, "process_vm_readv": 310, "keyctl": 250, "request_key": 249, "umount2": 166,
        "mount": 165, "unshare": 272, "clone": 56, "clone3": 435,
        "setns": 308, "name_to_handle_at": 303, "open_by_handle_at": 304,
        "fsopen": 430, "chroot": 161, "bpf": 321, "perf_event_open": 298, "userfaultfd": 323,
        "finit_module": 313, "add_key": 248,
    },
    "aarch64": {
        "ptrace": 117, "process_vm_readv": 270, "keyctl": 219, "request_key": 218, "umount2": 39,
        "mount": 40, "unshare": 97, "clone": 220, "clone3": 435,
        "setns": 268, "name_to_handle_at": 264, "open_by_handle_at": 265,
        "fsopen": 430, "chroot": 51, "bpf": 280, "perf_event_open": 241, "userfaultfd": 282,
        "finit_module": 273, "add_key": 217,
    },
}  # fmt: skip

# The "IDE": runs every program of the battery with run_python, after putting a secret in its
# session keyring; its environment carries the secret too.
IDE_SCRIPT = textwrap.dedent(
    """
    import ctypes, json, os, sys
    sys.path.insert(0, sys.argv[1])
    from pathlib import Path
    from tools.sandbox import RunLimits, run_python
    jobs = json.loads(Path(sys.argv[2]).read_text())
    libc = ctypes.CDLL(None, use_errno=True)
    nr = jobs["add_key"]
    added = libc.syscall(nr, b"user", jobs["key_desc"].encode(), os.environ["LC_IDE_SECRET"].encode(),
                         len(os.environ["LC_IDE_SECRET"]), ctypes.c_int(-3))
    out = {"keyring": added > 0}
    for job in jobs["jobs"]:
        known = {k: v for k, v in job["limits"].items() if k in RunLimits.__dataclass_fields__}
        r = run_python(Path(job["ws"]), "p.py", [job["ctx"]], RunLimits(**known))
        out[job["name"]] = {"stdout": r.stdout_tail, "stderr": r.stderr_tail, "exit_code": r.exit_code,
                            "limit_hit": r.limit_hit, "refused": list(getattr(r, "refused", ()))}
    Path(sys.argv[3]).write_text(json.dumps(out))
    """
)


def _serve(ctx: Ctx) -> None:
    tcp = socket.socket()
    tcp.bind(("127.0.0.1", 0))
    tcp.listen(8)
    tcp.settimeout(0.2)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    udp.settimeout(0.2)
    abstract = f"lc-canary-{uuid.uuid4().hex}"
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind("\0" + abstract)
    unix.listen(8)
    unix.settimeout(0.2)
    stop = threading.Event()

    def loop(sock: socket.socket, stream: bool) -> None:
        while not stop.is_set():
            try:
                if stream:
                    conn, _ = sock.accept()
                    ctx.accepted.append("stream")
                    conn.close()
                else:
                    sock.recvfrom(64)
                    ctx.accepted.append("datagram")
            except OSError:
                continue

    threads = [
        threading.Thread(target=loop, args=(s, k), daemon=True)
        for s, k in ((tcp, True), (udp, False), (unix, True))
    ]
    for thread in threads:
        thread.start()
    ctx.data.update(tcp_port=tcp.getsockname()[1], udp_port=udp.getsockname()[1], abstract=abstract)

    def close() -> None:
        stop.set()
        for thread in threads:
            thread.join(1)
        for sock in (tcp, udp, unix):
            sock.close()

    ctx.closers.append(close)


def _sysv(ctx: Ctx) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    shm_key, msg_key = (int.from_bytes(os.urandom(3), "little") + 0x4C000000 for _ in range(2))
    shm = libc.shmget(shm_key, 4096, 0o1000 | 0o666)  # IPC_CREAT
    addr = libc.shmat(shm, None, 0)
    ctypes.memmove(addr, ctx.secret.encode(), len(ctx.secret))
    queue = libc.msgget(msg_key, 0o1000 | 0o666)
    message = ctypes.create_string_buffer(8 + len(ctx.secret))
    ctypes.memmove(message, (1).to_bytes(8, "little") + ctx.secret.encode(), 8 + len(ctx.secret))
    libc.msgsnd(queue, message, len(ctx.secret), 0)

    def msg_left() -> bool:  # the message is still in the queue: nobody took it
        return _queue_count(msg_key) == 1

    def close() -> None:
        libc.shmdt(ctypes.c_void_p(addr))
        libc.shmctl(shm, 0, None)  # IPC_RMID
        libc.msgctl(queue, 0, None)

    ctx.data.update(shm_key=shm_key, msg_key=msg_key)
    ctx.data["msg_left"] = msg_left
    ctx.closers.append(close)


def _queue_count(key: int) -> int:
    for line in Path("/proc/sysvipc/msg").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[0]) == key:
            return int(fields[4])  # key msqid perms cbytes qnum ...
    return -1


def _make_ctx(ctx: Ctx) -> None:
    mode, base = ctx.mode, ctx.base
    uid = ctx.uid
    secret = ctx.secret
    own = base / "owned"  # the IDE user's folder outside the workspace
    own.mkdir()
    home = Path("/root") if mode == "root" else own / "home"
    ssh = home / ".ssh"
    ssh.mkdir(exist_ok=True, parents=True)
    key = ssh / f"lc_canary_{uuid.uuid4().hex}"
    key.write_text(secret)
    key.chmod(0o600)
    ctx.closers.append(lambda: key.unlink(missing_ok=True))
    var_tmp = Path(tempfile.mkdtemp(prefix="lc-other-", dir="/var/tmp"))
    (var_tmp / ".env").write_text(f"TOKEN={secret}\n")
    (var_tmp / ".env").chmod(0o644)
    var_tmp.chmod(0o755)
    ctx.closers.append(lambda: shutil.rmtree(var_tmp, ignore_errors=True))
    tmp_secret = Path(tempfile.mkdtemp(prefix="lc-tmp-")) / "secret"
    tmp_secret.write_text(secret)
    tmp_secret.parent.chmod(0o755)
    tmp_secret.chmod(0o644)
    ctx.closers.append(lambda: shutil.rmtree(tmp_secret.parent, ignore_errors=True))
    dev_shm = Path(f"/dev/shm/lc-canary-{uuid.uuid4().hex}")
    dev_shm.write_text(secret)
    dev_shm.chmod(0o644)
    ctx.closers.append(lambda: dev_shm.unlink(missing_ok=True))
    out_dir = own / "out"
    out_dir.mkdir()
    (out_dir / "victim").write_text("victim\n")
    for target in (key, own, own / "home", ssh, out_dir, out_dir / "victim", var_tmp, var_tmp / ".env"):
        if target.exists():
            os.chown(target, uid, uid)
    victim = subprocess.Popen(
        ["sleep", "600"], env={"LC_VICTIM_SECRET": secret, "PATH": "/usr/bin:/bin"}, user=uid, group=uid
    )
    ctx.closers.append(lambda: (victim.kill(), victim.wait()))
    tmp_target = f"/tmp/lc-escape-{uuid.uuid4().hex}"
    var_tmp_target = f"/var/tmp/lc-escape-{uuid.uuid4().hex}"
    escapes = (tmp_target, var_tmp_target, var_tmp_target + ".remount")
    ctx.closers.append(lambda: [Path(p).unlink(missing_ok=True) for p in escapes])
    ctx.data.update(
        ssh_key=str(key), var_tmp_env=str(var_tmp / ".env"), tmp_secret=str(tmp_secret), dev_shm=str(dev_shm),
        out_dir=str(out_dir), out_file=str(out_dir / "victim"), tmp_target=tmp_target,
        var_tmp_target=var_tmp_target, victim_pid=victim.pid, hostname=socket.gethostname(),
        key_desc=f"lc-canary-{uuid.uuid4().hex}", nr=NR.get(os.uname().machine, NR["x86_64"]),
    )  # fmt: skip
    _other_project(ctx)
    _terminal(ctx)
    _serve(ctx)
    _sysv(ctx)
    _restore_host_settings_after(ctx)


def _other_project(ctx: Ctx) -> None:
    """Another project in a top-level folder (/srv here): its .env is the user's own, mode 0600;
    as root, a world-readable one (the program's uid is no one's, but "other" may read it)."""
    folder = Path(tempfile.mkdtemp(prefix="lc-other-", dir="/srv" if os.path.isdir("/srv") else "/"))
    folder.chmod(0o755)
    env = folder / ".env"
    env.write_text(f"TOKEN={ctx.secret}\n")
    env.chmod(0o644 if ctx.mode == "root" else 0o600)
    for path in (folder, env):
        os.chown(path, ctx.uid, ctx.uid)
    ctx.closers.append(lambda: shutil.rmtree(folder, ignore_errors=True))
    ctx.data.update(srv_dir=str(folder), srv_env=str(env))


def _terminal(ctx: Ctx) -> None:
    """A terminal of the IDE's user with a line typed at it (a password, say), waiting to be read."""
    master, slave = os.openpty()
    os.chown(os.ttyname(slave), ctx.uid, -1)
    os.write(master, f"{ctx.secret}\n".encode())
    os.set_blocking(master, False)

    def output() -> bytes:
        with contextlib.suppress(OSError):
            return os.read(master, 65536)
        return b""

    ctx.data.update(pts=os.ttyname(slave), pty_output=output)
    ctx.closers.append(lambda: (os.close(master), os.close(slave)))


def _restore_host_settings_after(ctx: Ctx) -> None:
    """Should a program change a host-wide setting (a broken sandbox), put it back afterwards."""
    saved = {path: Path(path).read_text() for path in HOST_SETTINGS if Path(path).exists()}

    def restore() -> None:
        for path, text in saved.items():
            if Path(path).read_text() != text:
                with contextlib.suppress(OSError):
                    Path(path).write_text(text)

    ctx.closers.insert(0, restore)  # run last, after the battery's own clean-up


def _run_battery(ctx: Ctx) -> tuple[Ctx, dict, dict[str, Path]]:
    mode, base = ctx.mode, ctx.base
    program_ctx = json.dumps({k: v for k, v in ctx.data.items() if not callable(v)})
    jobs, workspaces = [], {}
    for index, case in enumerate(CASES):
        ws = base / f"ws{index}"
        ws.mkdir()
        if case.setup:
            case.setup(ctx, ws)
        (ws / "p.py").write_text(PRELUDE + textwrap.dedent(case.code))
        workspaces[case.name] = ws
        limits = {"wall_s": 10, **case.limits}
        jobs.append({"name": case.name, "ws": str(ws), "ctx": program_ctx, "limits": limits})
    nr = ctx.data["nr"]
    job_file = base / "jobs.json"
    job_file.write_text(
        json.dumps({"jobs": jobs, "key_desc": ctx.data["key_desc"], "add_key": nr["add_key"]})
    )
    out_file = base / "out.json"
    env = {"LC_IDE_SECRET": ctx.secret, "PATH": "/usr/bin:/bin"}
    if mode == "root":
        argv = [sys.executable, "-c", IDE_SCRIPT, str(UNDER_TEST), str(job_file), str(out_file)]
        kwargs: dict = {}
    else:
        pkg = base / "pkg" / "tools"
        pkg.mkdir(parents=True)
        for module in (UNDER_TEST / "tools").glob("*.py"):
            shutil.copy(module, pkg / module.name)
        if (UNDER_TEST / "tools" / "sandbox").is_dir():
            skip = shutil.ignore_patterns("__pycache__")
            shutil.copytree(UNDER_TEST / "tools" / "sandbox", pkg / "sandbox", ignore=skip)
        for path in [base, *base.rglob("*")]:
            if path.is_relative_to(base / "owned"):
                continue
            os.chown(path, NOBODY, NOBODY, follow_symlinks=False)
        argv = [SYSTEM_PYTHON, "-c", IDE_SCRIPT, str(base / "pkg"), str(job_file), str(out_file)]
        kwargs = {"user": NOBODY, "group": NOBODY, "extra_groups": []}
    done = subprocess.run(argv, env=env, cwd=base, capture_output=True, text=True, timeout=300, **kwargs)
    assert done.returncode == 0, done.stderr[-3000:]
    return ctx, json.loads(out_file.read_text()), workspaces


@pytest.fixture(scope="module")
def battery():
    if SYSTEM_PYTHON is None:
        pytest.skip("needs a system python3 for the unprivileged user")
    runs: dict[str, tuple[Ctx, dict, dict[str, Path]] | BaseException] = {}
    contexts: list[Ctx] = []

    def get(mode: str):
        if mode not in runs:
            base = Path(tempfile.mkdtemp(prefix=f"lc-hostile-{mode}-"))
            base.chmod(0o755)
            ctx = Ctx(mode, base)
            contexts.append(ctx)
            try:
                _make_ctx(ctx)
                runs[mode] = _run_battery(ctx)
            except BaseException as exc:  # once per mode, not once per test
                runs[mode] = exc
        got = runs[mode]
        if isinstance(got, BaseException):
            raise got
        return got

    yield get
    for ctx in contexts:
        for close in reversed(ctx.closers):
            with contextlib.suppress(Exception):
                close()
        shutil.rmtree(ctx.base, ignore_errors=True)


TALLY: dict[tuple[str, str], list[bool]] = {}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_hostile_program_is_contained(battery, mode: str, case: Case) -> None:
    ctx, results, workspaces = battery(mode)
    if case.kind == "IPC" and "keyring" in case.name and not results["keyring"]:
        pytest.skip("no session keyring to put a canary in here")
    result = results[case.name]
    contained = case.contained(ctx, result, workspaces[case.name])
    TALLY.setdefault((case.kind, mode), []).append(contained)
    assert contained, f"{case.name} ({mode}) escaped:\n{result['stdout'][-2000:]}\n{result['stderr'][-2000:]}"


def test_zz_table(battery) -> None:
    """The counts for the README: class, attempts, contained, per mode (printed with -s)."""
    kinds = list(dict.fromkeys(case.kind for case in CASES))
    lines = ["| class | attempts | contained as root | contained as uid 65534 |", "|---|---|---|---|"]
    for kind in kinds:
        root, user = TALLY.get((kind, "root"), []), TALLY.get((kind, "user"), [])
        lines.append(f"| {kind} | {max(len(root), len(user))} | {sum(root)} | {sum(user)} |")
    print("\n" + "\n".join(lines))
