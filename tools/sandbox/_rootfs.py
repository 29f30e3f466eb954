"""The program's own root: only what it needs, bound into an empty tmpfs, then pivot_root into it.

Standard library only: the launcher (`_launcher.py`, run as `python -I -S`) imports it. What the
new root holds, and nothing else of the host:

- the system: /usr, /bin, /sbin, /lib*, /etc, read-only (links where the host has links). /etc is
  whole: Python and the tools it starts read their settings there (ld.so.cache, passwd, nsswitch,
  localtime, certificates); its secrets (shadow, host keys) are root's, and the program is never
  root;
- the Python it runs and the libraries that Python loads, each folder bound by itself (a Python
  under a home folder brings that folder, not the home);
- the staging copy at the workspace's path and the program's own home with its temp, writable;
- empty /tmp, /var/tmp, /run and /dev/shm of its own;
- a /dev of its own: null, zero, full, random, urandom and the fd links. No terminals (the host's
  /dev/pts would let it read what the user types elsewhere), no vsock, kvm, disks or consoles;
- /proc (the PID namespace's own is mounted over it by the sandbox's init).

Other projects (under /srv, /opt, /mnt, any home), /var, /sys, /boot and the rest do not exist
there. Mount points are only ever created on our own tmpfs, never in a host folder bound in.
"""

from __future__ import annotations

import os

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 0x1, 0x2, 0x4, 0x8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 0x20, 0x1000, 0x4000, 0x40000
SYS_MOUNT_SETATTR = 442  # the same number on every Linux architecture (added in 5.12)
SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}
AT_FDCWD, AT_RECURSIVE, MOUNT_ATTR_RDONLY = -100, 0x8000, 0x1
MNT_DETACH = 2

SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
DEVICES = ("null", "zero", "full", "random", "urandom")
DEV_LINKS = {
    "fd": "/proc/self/fd",
    **{name: f"/proc/self/fd/{n}" for n, name in enumerate(("stdin", "stdout", "stderr"))},
}
# Empty, the program's own: (path, tmpfs options). /dev/shm is sized by the caller.
SCRATCH = (("/tmp", "size=1m,mode=1777"), ("/var/tmp", "size=1m,mode=1777"), ("/run", "size=64k,mode=755"))


class NotConfined(Exception):
    """A step of building the root failed: the program must not run half confined."""


def mount(libc, report: dict, source: str | None, target: str, fstype: str | None, flags: int,
          data: str = "") -> bool:  # fmt: skip
    import ctypes

    args = [text.encode() if text else None for text in (source, target, fstype)]
    if libc.mount(args[0], args[1], args[2], ctypes.c_ulong(flags), data.encode() if data else None) == 0:
        return True
    report["notes"].append(f"mount {target}: {os.strerror(ctypes.get_errno())}")
    return False


def set_read_only(libc, report: dict, path: str, read_only: bool, recursive: bool = True) -> bool:
    """mount_setattr(2) on `path` and every mount below it, all or nothing (MS_REMOUNT is per mount)."""
    import ctypes
    import struct

    # struct mount_attr {u64 attr_set, attr_clr, propagation, userns_fd}
    flag_set, flag_clear = (MOUNT_ATTR_RDONLY, 0) if read_only else (0, MOUNT_ATTR_RDONLY)
    attr = ctypes.create_string_buffer(struct.pack("QQQQ", flag_set, flag_clear, 0, 0), 32)
    done = libc.syscall(
        ctypes.c_long(SYS_MOUNT_SETATTR), ctypes.c_int(AT_FDCWD), path.encode(),
        ctypes.c_uint(AT_RECURSIVE if recursive else 0), attr, ctypes.c_size_t(32),
    )  # fmt: skip
    if done == 0:
        return True
    report["notes"].append(f"mount_setattr {path}: {os.strerror(ctypes.get_errno())}")
    return False


def under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def readable_paths(paths: list[str], writable: list[str]) -> list[str]:
    """The folders of `paths` worth binding: not the system's (bound whole), not inside or above
    a writable one (the workspace), not a top-level folder or a home itself (all its projects)."""
    kept: list[str] = []
    for path in sorted({os.path.normpath(p) for p in paths if os.path.isabs(p)}, key=len):
        if any(under(path, d) for d in SYSTEM_DIRS) or any(under(path, k) for k in kept):
            continue
        if any(under(path, w) or under(w, path) for w in writable) or path.count("/") < 2:
            continue
        if os.path.isdir(path):
            kept.append(path)
    return kept


class _Root:
    """Builds the new root at `base` (already an empty directory of ours)."""

    def __init__(self, libc, report: dict, base: str):
        self.libc, self.report, self.base = libc, report, base
        self.own_devices: set[int] = set()  # our tmpfs mounts: the only places we create in
        self.writable_devices: set[int] = set()  # those the program may write (/tmp...)
        self.skeleton: list[str] = []  # folders made in those, only to hold a mount point

    def at(self, path: str) -> str:
        return self.base + path

    def tmpfs(self, path: str, options: str, flags: int = MS_NOSUID | MS_NODEV) -> None:
        target = self.point(path)
        if not mount(self.libc, self.report, "tmpfs", target, "tmpfs", flags, options):
            raise NotConfined(self.report["notes"][-1])
        self.own_devices.add(os.stat(target).st_dev)

    def point(self, path: str, is_dir: bool = True) -> str:
        """The mount point for `path` in the new root, made on our own tmpfs where missing."""
        current = self.base
        parts = [part for part in path.split("/") if part]
        for index, part in enumerate(parts):
            parent, current = current, os.path.join(current, part)
            try:
                os.lstat(current)
            except FileNotFoundError:
                device = os.stat(parent).st_dev
                if device not in self.own_devices:
                    raise NotConfined(f"{path}: its folder is a host folder, not ours") from None
                made = "/" + "/".join(parts[: index + 1])
                if device in self.writable_devices and not any(under(made, s) for s in self.skeleton):
                    self.skeleton.append(made)
                if is_dir or index < len(parts) - 1:
                    os.mkdir(current, 0o755)
                else:
                    os.close(os.open(current, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
                continue
            if os.path.islink(current) or (index < len(parts) - 1 and not os.path.isdir(current)):
                raise NotConfined(f"{path}: {current} is not a plain folder in the new root")
        return current

    def seal_skeleton(self) -> None:
        """The folders made in /tmp & co. to reach a mount point (the workspace under /tmp/...)
        become mounts of their own, so they stay read-only when /tmp is made writable again."""
        for path in self.skeleton:
            self.bind(self.at(path), path)

    def bind(self, source: str, path: str, is_dir: bool = True) -> None:
        flags = MS_BIND | (MS_REC if is_dir else 0)
        if not mount(self.libc, self.report, source, self.point(path, is_dir), None, flags):
            raise NotConfined(self.report["notes"][-1])

    def system(self, path: str) -> None:
        if os.path.islink(path):
            os.symlink(os.readlink(path), self.at(path))
        elif os.path.isdir(path):
            self.bind(path, path)

    def dev(self, shm_options: str) -> None:
        self.tmpfs("/dev", "size=64k,nr_inodes=64,mode=755", MS_NOSUID | MS_NODEV | MS_NOEXEC)
        for name in DEVICES:
            if os.path.exists(f"/dev/{name}"):
                self.bind(f"/dev/{name}", f"/dev/{name}", is_dir=False)
        for name, target in DEV_LINKS.items():
            os.symlink(target, self.at(f"/dev/{name}"))
        self.tmpfs("/dev/shm", shm_options)


def enter(libc, report: dict, plan: dict) -> None:
    """Build the root at plan["base"] and move into it; the host's tree is gone for this mount
    namespace. plan: workspace, stage_ws, home, stage_home, readable, shm_options, network,
    proc_writable (root: the id-map helper writes through /proc)."""
    root = _Root(libc, report, plan["base"])
    root.tmpfs("/", "size=1m,nr_inodes=4096,mode=755")
    for path in SYSTEM_DIRS:
        root.system(path)
    for path, options in SCRATCH:
        root.tmpfs(path, options)
        root.writable_devices.add(os.stat(root.at(path)).st_dev)
    root.dev(plan["shm_options"])
    root.bind("/proc", "/proc")
    readable = list(plan["readable"])
    if plan["network"]:  # /etc/resolv.conf often points into /run (systemd-resolved)
        readable.append(os.path.dirname(os.path.realpath("/etc/resolv.conf")))
    writable = [plan["workspace"], plan["home"]]
    for path in readable_paths(readable, writable):
        root.bind(os.path.realpath(path), path)
    root.bind(plan["stage_ws"], plan["workspace"])
    root.bind(plan["stage_home"], plan["home"])
    root.seal_skeleton()
    if not set_read_only(libc, report, root.base, True):  # all or nothing
        raise NotConfined(report["notes"][-1])
    report["new_root"] = _pivot(libc, report, root.base)
    writable += ["/tmp", "/var/tmp", "/run", "/dev/shm"]
    if not all(set_read_only(libc, report, path, False, recursive=False) for path in writable):
        raise NotConfined(report["notes"][-1])
    if plan["proc_writable"] and not set_read_only(libc, report, "/proc", False, recursive=False):
        raise NotConfined(report["notes"][-1])
    report["private_dev"] = True
    os.chdir(plan["workspace"])


def _pivot(libc, report: dict, base: str) -> str:
    """pivot_root into `base` and detach the old root; chroot where the host's root cannot be
    pivoted (an initramfs root): then the old tree stays, read-only and out of reach (the program
    has no capability to chroot back, and no descriptor outside)."""
    import ctypes

    os.chdir(base)
    number = SYS_PIVOT_ROOT.get(os.uname().machine)
    if number is not None and libc.syscall(ctypes.c_long(number), b".", b".") == 0:
        if libc.umount2(b".", MNT_DETACH) != 0:
            raise NotConfined(f"detach the old root: {os.strerror(ctypes.get_errno())}")
        os.chdir("/")
        return "pivot"
    report["notes"].append(f"pivot_root: {os.strerror(ctypes.get_errno())}; chroot instead")
    if not set_read_only(libc, report, "/", True):  # the host's tree stays, read-only
        raise NotConfined(report["notes"][-1])
    os.chroot(".")
    os.chdir("/")
    return "chroot"
