"""The sandbox's launcher: `python -I -S _launcher.py --launch CONFIG`, standard library only.

It runs between the IDE and the program and sets up, in this order:

1. the run's cgroups (root only: pids.max, and a memory limit for the whole tree);
2. a mount namespace with a staging copy of the workspace on a size-capped tmpfs, and a root of
   the program's own (`_rootfs`) where that copy is at the workspace's path: the program never
   writes the workspace itself, the IDE applies back what it accepts after the run (see
   `tools.sandbox._staging`), and nothing of the host but the system, its Python, and an empty
   /tmp, /run and /dev (no terminals) of its own exists for it;
3. a user namespace. As root it maps only an unused uid (SANDBOX_ID): the program is never real
   root, has no capability over the host, and the mounts made before are locked (it cannot
   unmount a cover to see what is underneath). A normal user maps their own uid, as before;
4. new network, IPC, UTS and PID namespaces, and a fresh /proc;
5. in the program's own process: an empty capability bounding set, a new session keyring,
   no_new_privs and a seccomp filter against mount, namespace, ptrace, keyring, module, kexec,
   hostname and similar calls; then exec.

Every step is tried and its failure noted in the report the parent reads from `status_fd`, except
where going on would be worse than not running (a half-confined filesystem): then it exits 126.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import stat
import sys
import time

if __package__:
    from tools.sandbox import _rootfs
else:  # run as a script with -I: its own folder is not on sys.path
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import _rootfs  # type: ignore[no-redef]

CLONE_NEWNET = 0x40000000
CLONE_NEWPID = 0x20000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWNS = 0x00020000
from_rootfs = _rootfs  # the mount flags and calls live there, shared with building the root
MS_NOSUID, MS_NODEV, MS_NOEXEC = from_rootfs.MS_NOSUID, from_rootfs.MS_NODEV, from_rootfs.MS_NOEXEC
MS_REMOUNT, MS_BIND, MS_REC = from_rootfs.MS_REMOUNT, from_rootfs.MS_BIND, from_rootfs.MS_REC
MS_PRIVATE = from_rootfs.MS_PRIVATE
_mount = from_rootfs.mount
PR_SET_PDEATHSIG = 1
PR_CAPBSET_DROP = 24
PR_SET_SECCOMP = 22
PR_SET_NO_NEW_PRIVS = 38
PR_SET_CHILD_SUBREAPER = 36
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
SECCOMP_MODE_FILTER = 2
KEYCTL_JOIN_SESSION_KEYRING = 1
SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 0x1

# The uid (and gid) a root IDE's program runs as: unused on the host, so it owns nothing there.
SANDBOX_ID = 1_879_000_000
STAGE_WS, STAGE_HOME, STAGE_ROOT = "ws", "home", "root"  # on the staging tmpfs

# seccomp: (x86_64, aarch64) numbers of the calls refused with EPERM. None: not on that arch.
AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
DENIED_CALLS = {
    "mount": (165, 40), "umount2": (166, 39), "pivot_root": (155, 41), "chroot": (161, 51),
    "open_tree": (428, 428), "move_mount": (429, 429), "fsopen": (430, 430), "fsconfig": (431, 431),
    "fsmount": (432, 432), "fspick": (433, 433), "mount_setattr": (442, 442),
    "open_tree_attr": (467, 467), "setns": (308, 268), "open_by_handle_at": (304, 265),
    "name_to_handle_at": (303, 264), "ptrace": (101, 117), "process_vm_readv": (310, 270),
    "process_vm_writev": (311, 271), "pidfd_getfd": (438, 438), "keyctl": (250, 219),
    "add_key": (248, 217), "request_key": (249, 218), "init_module": (175, 105),
    "finit_module": (313, 273), "delete_module": (176, 106), "kexec_load": (246, 104),
    "kexec_file_load": (320, 294), "sethostname": (170, 161), "setdomainname": (171, 162),
    "bpf": (321, 280), "perf_event_open": (298, 241), "userfaultfd": (323, 282),
    "swapon": (167, 224), "swapoff": (168, 225), "reboot": (169, 142), "acct": (163, 89),
    "quotactl": (179, 60), "quotactl_fd": (443, 443), "syslog": (103, 116), "vhangup": (153, 58),
    "iopl": (172, None), "ioperm": (173, None),
    # io_uring makes sockets (IORING_OP_SOCKET) and opens files without the calls checked below.
    "io_uring_setup": (425, 425), "io_uring_enter": (426, 426), "io_uring_register": (427, 427),
}  # fmt: skip
CLONE_CALLS = {"clone": (56, 220), "unshare": (272, 97)}  # refused only with CLONE_NEWUSER
CLONE3 = 435  # its flags are in memory a filter cannot read: ENOSYS, and libc falls back to clone
KEYCTL = {"x86_64": 250, "aarch64": 219}
# socket() and socketpair() only for these families: AF_VSOCK reaches the hypervisor (it is outside
# the network namespace), and netlink, packet, alg, bluetooth... are kernel surface no check needs.
SOCKET_CALLS = {"socket": (41, 198), "socketpair": (53, 199)}
SOCKET_FAMILIES = (1, 2, 10)  # AF_UNIX, AF_INET, AF_INET6
# Memory no process maps: a memfd, a SysV segment nobody attached, queued SysV messages. A cgroup
# counts them; the watch of a normal user's run (Pss of its processes) cannot, so there they
# answer ENOSYS, as on a kernel without them (code that tries a memfd falls back to a file).
UNSEEN_MEMORY_CALLS = {"memfd_create": (319, 279), "shmget": (29, 194), "msgget": (68, 186)}
# ENOSYS in both modes, as on a kernel built without it: no check needs secret memory, and a normal
# user's watch does not see it (neither anonymous nor shared memory in smaps: 900 MB went unseen).
NEVER_CALLS = {"memfd_secret": (447, 447)}
EPERM, ENOSYS, EAFNOSUPPORT = 1, 38, 97


class _HalfConfined(Exception):
    """Part of the filesystem became read-only but the rest could not be set up: do not run."""


class _TooLarge(Exception):
    """The workspace does not fit the staging budget."""


def seccomp_program(machine: str, deny_unseen_memory: bool = False) -> bytes | None:
    """The classic BPF filter for this architecture, or None where we have no numbers for it.
    `deny_unseen_memory`: UNSEEN_MEMORY_CALLS answer ENOSYS (memory watched, not a cgroup)."""
    import struct

    if machine not in AUDIT_ARCH:
        return None
    column = 0 if machine == "x86_64" else 1
    ld_abs, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    allow, kill = 0x7FFF0000, 0x80000000
    deny, nosys = 0x00050000 | EPERM, 0x00050000 | ENOSYS
    no_family = 0x00050000 | EAFNOSUPPORT  # what a kernel without that family answers

    def op(code: int, k: int, jt: int = 0, jf: int = 0) -> tuple[int, int, int, int]:
        return (code, jt, jf, k)

    # Another ABI on the same CPU (i386 on x86_64) numbers its calls differently: kill it.
    prog = [op(ld_abs, 4), op(jeq, AUDIT_ARCH[machine], 1, 0), op(ret, kill), op(ld_abs, 0)]
    if machine == "x86_64":  # the x32 ABI: same arch field, numbers with bit 30 set
        prog += [op(jge, 0x40000000, 0, 1), op(ret, deny)]
    for numbers in DENIED_CALLS.values():
        if numbers[column] is not None:
            prog += [op(jeq, numbers[column], 0, 1), op(ret, deny)]
    prog += [op(jeq, CLONE3, 0, 1), op(ret, nosys)]
    for numbers in NEVER_CALLS.values():
        prog += [op(jeq, numbers[column], 0, 1), op(ret, nosys)]
    for numbers in UNSEEN_MEMORY_CALLS.values() if deny_unseen_memory else ():
        prog += [op(jeq, numbers[column], 0, 1), op(ret, nosys)]
    socket_nr, socketpair_nr = (SOCKET_CALLS[name][column] for name in ("socket", "socketpair"))
    unix, inet, inet6 = SOCKET_FAMILIES
    prog += [
        op(jeq, socket_nr, 1, 0),
        op(jeq, socketpair_nr, 0, 6),  # neither: on to the clone checks
        op(ld_abs, 16),  # the low half of the first argument: the address family
        op(jeq, unix, 3, 0),
        op(jeq, inet, 2, 0),
        op(jeq, inet6, 1, 0),
        op(ret, no_family),
        op(ret, allow),
    ]
    clone, unshare = (CLONE_CALLS[name][column] for name in ("clone", "unshare"))
    prog += [
        op(jeq, clone, 1, 0),
        op(jeq, unshare, 0, 3),
        op(ld_abs, 16),  # the low half of the first argument (little endian): the flags
        op(jset, CLONE_NEWUSER, 0, 1),
        op(ret, deny),
        op(ret, allow),
    ]
    return b"".join(struct.pack("HBBI", *item) for item in prog)


def _install_seccomp(libc, machine: str, deny_unseen_memory: bool = False) -> bool:
    import ctypes

    code = seccomp_program(machine, deny_unseen_memory)
    if code is None:
        return False
    buffer = ctypes.create_string_buffer(code, len(code))

    class Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = Fprog(len(code) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    return libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) == 0


def _launcher_main(config: dict) -> None:
    import ctypes

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

    _join_cgroups(config, report, "cgroup")
    uid, gid = os.geteuid(), os.getegid()
    as_root = uid == 0
    report["root"] = as_root
    own_userns = False
    confined = False
    if as_root:
        # Mounts first, as real root: then the user namespace locks them all for the program.
        if unshare(CLONE_NEWNS, "mount"):
            confined = _confine_or_exit(libc, config, report, SANDBOX_ID)
        if not confined:
            _join_cgroups(config, report, "memory_cgroup")  # else joined in _stage
        own_userns = _enter_mapped_userns(libc, report, SANDBOX_ID)
        if own_userns and confined:
            unshare(CLONE_NEWNS, "mount (lock)")
        report["uid"] = SANDBOX_ID
    elif unshare(CLONE_NEWUSER, "user"):
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
        if unshare(CLONE_NEWNS, "mount"):
            confined = _confine_or_exit(libc, config, report, None)
        report["uid"] = uid
    if config.get("stage_socket") is not None and not confined:
        # Unused without staging; the program must not inherit a channel to the IDE.
        with contextlib.suppress(OSError):
            os.close(config["stage_socket"])
    if as_root or own_userns:
        if not config["network"] and unshare(CLONE_NEWNET, "net"):
            report["netns"] = True
            _loopback_up(report)
        report["ipcns"] = unshare(CLONE_NEWIPC, "ipc")
        report["utsns"] = unshare(CLONE_NEWUTS, "uts")
        report["pidns"] = unshare(CLONE_NEWPID, "pid")
    if own_userns:
        _limit_tasks(config, report, as_root)
    report["memory"] = bool(config["memory_bytes"])
    report["file_size"] = bool(config.get("file_bytes"))
    # Without a memory cgroup the limit is a watch of what processes map: see UNSEEN_MEMORY_CALLS.
    config["deny_unseen_memory"] = bool(config["memory_bytes"]) and not report.get("memory_cgroup")
    os.write(status_fd, (json.dumps(report) + "\n").encode())

    init = os.fork()
    if init == 0:
        _init_main(config, libc, bool(report.get("pidns")), confined)
    os.waitpid(init, 0)
    os._exit(0)


def _join_cgroups(config: dict, report: dict, *kinds: str) -> None:
    """Move the launcher (and so all it starts) into the run's pids or memory cgroup (root)."""
    for kind in kinds:
        if config.get(kind):
            try:
                with open(os.path.join(config[kind], "cgroup.procs"), "w") as fh:
                    fh.write(str(os.getpid()))
                report[kind] = True
            except OSError as exc:
                report["notes"].append(f"{kind}: {exc}")


def _limit_tasks(config: dict, report: dict, as_root: bool) -> None:
    """The process count, in a user namespace of the run's own."""
    import resource

    if not as_root:
        # Counted per (user namespace, uid) since Linux 5.14: only the sandbox's own tasks.
        nproc = config["nproc"]
        try:
            resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
            report["nproc"] = True
        except (ValueError, OSError) as exc:
            report["notes"].append(f"RLIMIT_NPROC: {exc}")
    elif not report.get("cgroup"):
        # Root without a pids cgroup: the program's uid in its own namespace counts only its
        # tasks (the launcher and init stay real root, which the limit exempts).
        config["program_nproc"] = max(1, config["nproc"] - 2)
        report["nproc"] = True


def _confine_or_exit(libc, config: dict, report: dict, owner: int | None) -> bool:
    try:
        report["filesystem"] = _confine_filesystem(libc, config, report, owner)
    except _HalfConfined as exc:
        os.write(2, f"sandbox: cannot confine the program to the workspace: {exc}\n".encode())
        os._exit(126)
    except _TooLarge as exc:
        os.write(2, f"sandbox: {exc}\n".encode())
        os._exit(126)
    return report["filesystem"]


def _enter_mapped_userns(libc, report: dict, sandbox_id: int) -> bool:
    """As root: a user namespace where only `sandbox_id` is mapped (to itself).

    Once in it, this process can no longer map other ids, so a helper left outside writes the map.
    """
    import ctypes

    ready_r, ready_w = os.pipe()
    helper = os.fork()
    if helper == 0:
        os.close(ready_w)
        ok = os.read(ready_r, 1) == b"1"
        try:
            if ok:
                parent = os.getppid()
                for name in ("uid_map", "gid_map"):
                    with open(f"/proc/{parent}/{name}", "w") as fh:
                        fh.write(f"{sandbox_id} {sandbox_id} 1\n")
        except OSError as exc:
            os.write(2, f"sandbox: user namespace id map: {exc}\n".encode())
            os._exit(1)
        os._exit(0 if ok else 1)
    os.close(ready_r)
    entered = libc.unshare(CLONE_NEWUSER) == 0
    if not entered:
        report["notes"].append(f"unshare user: {os.strerror(ctypes.get_errno())}")
    os.write(ready_w, b"1" if entered else b"0")
    os.close(ready_w)
    _pid, status = os.waitpid(helper, 0)
    if entered and status == 0:
        report["userns"] = True
        return True
    if entered:
        # In a namespace without a map no id is valid: nothing could run. Do not go on.
        os.write(2, b"sandbox: cannot map the sandbox uid in its user namespace\n")
        os._exit(126)
    return False


def _confine_filesystem(libc, config: dict, report: dict, owner: int | None) -> bool:
    """In a fresh mount namespace: a staging copy of the workspace, and a root of its own.

    The copy lives on a size-capped tmpfs mounted over the run's folder, together with the
    program's home; the program's root (`_rootfs`) binds the copy at the workspace's path, so it
    sees the usual paths, and holds nothing else of the host but the system, its Python and an
    empty /tmp, /run and /dev of its own. The parent gets a descriptor of the staging tmpfs to
    apply back what it accepts.
    False when the mount namespace cannot be made private (the run goes on without it, and the
    report says so).
    """
    workspace, run_dir = os.getcwd(), config["run_dir"]
    # Private first, so nothing done here reaches the host's mounts.
    if not _mount(libc, report, None, "/", None, MS_REC | MS_PRIVATE):
        return False
    _stage(libc, config, report, workspace, owner)
    plan = {
        "base": os.path.join(run_dir, STAGE_ROOT),
        "workspace": workspace,
        "stage_ws": os.path.join(run_dir, STAGE_WS),
        "home": os.path.join(run_dir, STAGE_HOME),
        "stage_home": os.path.join(run_dir, STAGE_HOME),
        "readable": [*config["python"], *config.get("libraries", ())],
        "shm_options": f"size={config.get('file_bytes') or 64 << 20},mode=1777",
        "network": config["network"],
        # The user-namespace helper writes our id map through /proc (root only), and a fresh
        # /proc is mounted over it in the PID namespace.
        "proc_writable": owner is not None,
    }
    try:
        _rootfs.enter(libc, report, plan)
    except (_rootfs.NotConfined, OSError) as exc:
        raise _HalfConfined(f"{exc}; {'; '.join(report['notes'])}") from None
    return True


def _stage(libc, config: dict, report: dict, workspace: str, owner: int | None) -> list[str]:
    """Mount the staging tmpfs over the run's folder and copy the workspace into it.

    Returns the top-level folders bound read-only (from the workspace) instead of copied.
    """
    run_dir, budget = config["run_dir"], config["stage_bytes"]
    write_bytes, max_files = config["write_bytes"], config["max_files"]
    handle = os.open(run_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)  # the host folder
    os.close(handle)
    options = f"size={budget + write_bytes},nr_inodes={max_files + 1_000_000},mode=755"
    if not _mount(libc, report, "tmpfs", run_dir, "tmpfs", MS_NOSUID | MS_NODEV, options):
        raise _HalfConfined("; ".join(report["notes"]))
    root_fd = os.open(run_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        for name, mode in ((STAGE_WS, 0o755), (STAGE_HOME, 0o700)):
            os.mkdir(name, mode, dir_fd=root_fd)
            if owner is not None:
                os.chown(name, owner, owner, dir_fd=root_fd)
        os.mkdir(STAGE_ROOT, 0o755, dir_fd=root_fd)  # where the program's root is built
        home_fd = os.open(STAGE_HOME, os.O_RDONLY | os.O_DIRECTORY, dir_fd=root_fd)
        os.mkdir("tmp", 0o700, dir_fd=home_fd)
        if owner is not None:
            os.chown("tmp", owner, owner, dir_fd=home_fd)
        os.close(home_fd)
        skip = set(config["bound"])  # the parent's `_staging.bound_names`, so both sides agree
        counts = {"bytes": 0, "files": 0, "uncopied": []}
        src = os.open(workspace, os.O_RDONLY | os.O_DIRECTORY)
        dst = os.open(STAGE_WS, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=root_fd)
        try:
            bound = _copy_tree(src, dst, owner, skip, counts, budget)
        finally:
            os.close(src)
            os.close(dst)
        copied_at = time.time_ns()
        # Now the cap: what was copied plus what the program may write, in bytes and in files.
        used = os.statvfs(run_dir)
        used_bytes = (used.f_blocks - used.f_bfree) * used.f_frsize
        used_inodes = used.f_files - used.f_ffree
        size = f"size={used_bytes + write_bytes + (1 << 20)},nr_inodes={used_inodes + max_files + 16}"
        if not _mount(libc, report, None, run_dir, None, MS_REMOUNT | MS_NOSUID | MS_NODEV, size):
            raise _HalfConfined("; ".join(report["notes"]))
        # Only after the copy: it is charged to the IDE, not to the program's limit (which left a
        # program of a large workspace little; lowering a v2 limit under the copy's charge has the
        # kernel kill the launcher at once, read as "failed (memory)"). Before the new root, where
        # /sys/fs/cgroup is not.
        _join_cgroups(config, report, "memory_cgroup")
        for name in bound:
            if not _mount(libc, report, os.path.join(workspace, name), os.path.join(run_dir, STAGE_WS, name),
                          None, MS_BIND | MS_REC):  # fmt: skip
                raise _HalfConfined("; ".join(report["notes"]))
        report["staging"] = {
            "copied_files": counts["files"],
            "copied_bytes": counts["bytes"],
            "copied_at_ns": copied_at,
            "bound": bound,
            "uncopied": counts["uncopied"][:1000],
            "uncopied_more": len(counts["uncopied"]) > 1000,
        }
        sock = config.get("stage_socket")
        if sock is not None:
            import socket

            with socket.socket(fileno=sock) as channel:
                socket.send_fds(channel, [b"s"], [root_fd])
        return bound
    finally:
        os.close(root_fd)


def _copy_tree(
    src: int, dst: int, owner: int | None, skip: set[str], counts: dict, budget: int, prefix: str = ""
) -> list[str]:
    """Copy directory `src` into `dst` (descriptors): folders, regular files and symlinks.

    Names in `skip` (top level only) become empty folders, mount points for read-only binds;
    they are returned. Other kinds (FIFOs, sockets, devices) are left out: the program gets none.
    """
    bound: list[str] = []
    with os.scandir(src) as entries:
        listing = [(entry.name, entry.stat(follow_symlinks=False)) for entry in entries]
    for name, st in listing:
        kind = stat.S_IFMT(st.st_mode)
        try:
            if kind == stat.S_IFDIR:
                os.mkdir(name, 0o700, dir_fd=dst)
                if name in skip:
                    bound.append(name)
                elif prefix.count("/") >= 64:  # as deep as the parent lists (_staging.MAX_DEPTH)
                    counts["uncopied"].append(prefix + name)
                else:
                    sub_src = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=src)
                    sub_dst = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=dst)
                    try:
                        _copy_tree(sub_src, sub_dst, owner, set(), counts, budget, f"{prefix}{name}/")
                    finally:
                        os.close(sub_src)
                        os.close(sub_dst)
                os.chmod(name, stat.S_IMODE(st.st_mode) & 0o777 | 0o700, dir_fd=dst)
            elif kind == stat.S_IFREG:
                counts["bytes"] += st.st_size
                counts["files"] += 1
                if counts["bytes"] > budget:
                    raise _TooLarge(
                        f"the workspace is larger than the staging budget ({budget >> 20} MB): "
                        "raise RunLimits.stage_mb or move data out of the workspace"
                    )
                _copy_file(src, dst, name, st)
            elif kind == stat.S_IFLNK:
                os.symlink(os.readlink(name, dir_fd=src), name, dir_fd=dst)
            else:
                continue
        except _TooLarge:
            raise
        except OSError:
            counts["uncopied"].append(prefix + name)  # the parent must not read it as deleted
            continue
        os.utime(name, ns=(st.st_atime_ns, st.st_mtime_ns), dir_fd=dst, follow_symlinks=False)
        if owner is not None:
            os.chown(name, owner, owner, dir_fd=dst, follow_symlinks=False)
    return bound


def _copy_file(src: int, dst: int, name: str, st: os.stat_result) -> None:
    fd_in = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=src)
    try:
        mode = stat.S_IMODE(st.st_mode) & 0o777
        fd_out = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode, dir_fd=dst)
        try:
            send_file(fd_out, fd_in, st.st_size)
        finally:
            os.close(fd_out)
    finally:
        os.close(fd_in)


def send_file(fd_out: int, fd_in: int, size: int) -> None:
    """Copy `size` bytes in the kernel (the staging copy, and applying it back); stops early if
    the source turns out shorter."""
    left = size
    while left > 0:
        sent = os.sendfile(fd_out, fd_in, None, min(left, 1 << 30))
        if sent <= 0:
            break
        left -= sent


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


def _drop_privileges(libc, config: dict, as_root: bool) -> dict:
    """In the program's process, just before exec: what it may never do, whatever it runs."""
    import ctypes

    done: dict = {}
    for cap in range(64):  # an empty bounding set: no exec can give a capability back
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 and ctypes.get_errno() == 22:
            break  # EINVAL: past the last capability this kernel knows
    libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    done["bounding_set"] = libc.prctl(23, 0, 0, 0, 0) == 0  # PR_CAPBSET_READ of CAP_CHOWN: 0 = dropped
    machine = os.uname().machine
    if machine in KEYCTL:
        # A keyring of its own: not the IDE's session keyring (tokens some tools keep there).
        done["keyring"] = libc.syscall(KEYCTL[machine], KEYCTL_JOIN_SESSION_KEYRING, None) >= 0
    if as_root:
        os.setgroups([])  # root's supplementary groups would open files to the program
        os.setresgid(SANDBOX_ID, SANDBOX_ID, SANDBOX_ID)
        os.setresuid(SANDBOX_ID, SANDBOX_ID, SANDBOX_ID)
    done["no_new_privs"] = libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
    unseen = bool(config.get("deny_unseen_memory"))
    done["seccomp"] = done["no_new_privs"] and _install_seccomp(libc, machine, unseen)
    return done


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
            as_root = bool(config.get("as_root"))
            try:
                dropped = _drop_privileges(libc, config, as_root)
            except OSError as exc:
                # As root, running on would mean running as root: never.
                os.write(2, f"sandbox: cannot drop privileges: {exc}\n".encode())
                os._exit(126)
            os.write(status_fd, (json.dumps({"program": dropped}) + "\n").encode())
            os.close(status_fd)
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            if config.get("program_nproc"):
                resource.setrlimit(resource.RLIMIT_NPROC, (config["program_nproc"],) * 2)
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
