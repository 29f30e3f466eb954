"""The run's cgroups (root only): pids.max, and a memory limit for the whole process tree.

RLIMIT_AS is per process: 4 processes may each hold the limit. A memory cgroup counts them all,
and the staging tmpfs's pages too. Root can create one in a cgroup v1 memory hierarchy or in
cgroup v2 where the controller is enabled; anyone else gets none here (the capabilities say so).
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

PREFIX = "localcrew-sbx-"


def _mounts_and_own() -> tuple[list[list[str]], list[list[str]]] | None:
    try:
        with open("/proc/self/mounts", encoding="utf-8") as fh:
            mounts = [line.split() for line in fh]
        with open("/proc/self/cgroup", encoding="utf-8") as fh:
            own = [line.rstrip("\n").split(":", 2) for line in fh]
    except OSError:
        return None
    return mounts, own


def cgroup_parent(controller: str) -> str | None:
    """A cgroup directory with `controller` under which we may create children."""
    found = _mounts_and_own()
    if found is None:
        return None
    mounts, own = found
    for _dev, mountpoint, fstype, options, *_ in mounts:
        if fstype == "cgroup2":
            try:
                with open(os.path.join(mountpoint, "cgroup.controllers"), encoding="utf-8") as f:
                    if controller not in f.read().split():
                        continue
                control = os.path.join(mountpoint, "cgroup.subtree_control")
                with open(control, encoding="utf-8") as f:
                    enabled = controller in f.read().split()
                if not enabled:
                    with open(control, "w", encoding="utf-8") as f:
                        f.write(f"+{controller}")
            except OSError:
                continue
            # The root cgroup is the only v2 cgroup exempt from "no internal processes".
            return mountpoint
        if fstype == "cgroup" and controller in options.split(","):
            for _id, controllers, path in own:
                if controller in controllers.split(","):
                    candidate = os.path.join(mountpoint, path.lstrip("/"))
                    if os.access(candidate, os.W_OK):
                        return candidate
            return mountpoint if os.access(mountpoint, os.W_OK) else None
    return None


def make_cgroup(controller: str, settings: dict[str, int]) -> str | None:
    """A fresh cgroup with `settings` written (the first one that exists of each is required)."""
    if os.geteuid() != 0:
        return None  # unprivileged users get RLIMIT_NPROC in a user namespace instead
    parent = cgroup_parent(controller)
    if parent is None or not os.access(parent, os.W_OK):
        return None
    for stale in Path(parent).glob(PREFIX + "*"):
        if creator_alive(stale.name, PREFIX):
            continue  # another run's cgroup, possibly still empty before its launcher joins
        with contextlib.suppress(OSError):
            stale.rmdir()  # left by a crashed parent; fails harmlessly while still in use
    path = os.path.join(parent, f"{PREFIX}{os.getpid()}-{os.urandom(4).hex()}")
    try:
        os.mkdir(path)
        for names, value in settings.items():
            for name in names.split("|"):  # v1 name | v2 name
                target = os.path.join(path, name)
                if os.path.exists(target):
                    with open(target, "w", encoding="ascii") as fh:
                        fh.write(str(value))
                    break
            else:
                raise OSError(f"no {names} in {path}")
    except OSError:
        remove_cgroup(path)
        return None
    return path


def creator_alive(name: str, prefix: str) -> bool:
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


def cgroup_pids(cgroup: str) -> list[int]:
    try:
        with open(os.path.join(cgroup, "cgroup.procs"), encoding="ascii") as fh:
            return [int(line) for line in fh if line.strip()]
    except OSError:
        return []


def kill_cgroup(cgroup: str) -> None:
    kill_file = os.path.join(cgroup, "cgroup.kill")
    for _ in range(200):
        pids = cgroup_pids(cgroup)
        if not pids:
            return
        if os.path.exists(kill_file):
            with contextlib.suppress(OSError), open(kill_file, "w", encoding="ascii") as fh:
                fh.write("1")
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.005)


def counter(cgroup: str | None, filename: str, key: str) -> int:
    """A `key value` line of a cgroup file (pids.events max, memory.oom_control oom_kill)."""
    if cgroup is None:
        return 0
    try:
        with open(os.path.join(cgroup, filename), encoding="ascii") as fh:
            for line in fh:
                name, _, value = line.partition(" ")
                if name == key:
                    return int(value)
    except (OSError, ValueError):
        pass
    return 0


def remove_cgroup(cgroup: str) -> None:
    kill_cgroup(cgroup)
    for _ in range(100):
        try:
            os.rmdir(cgroup)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.01)  # tasks still exiting
