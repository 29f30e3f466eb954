"""Parent side of staging: what the workspace held before a run, and applying back what it wrote.

The program wrote only its staging copy (a tmpfs the launcher hands us as a descriptor). After the
run, with every process of the sandbox gone, we walk that copy with directory descriptors and
apply to the workspace only what a program may change there:

- regular files, new or changed, each with one link (a hard link is refused), within a byte and
  file-count budget; written to a temporary name and renamed, so a symlink placed in the
  workspace is replaced, never followed;
- deletions of regular files the workspace had before the run and still has unchanged;
- new folders.

Refused, and reported: symlinks (new or changed), FIFOs, sockets and devices, anything named
.git or .localcrew at any depth (a planted repository's hooks would run at the user's next git
command), a path that is no longer a plain folder in the workspace, and anything over budget.
Workspace paths are walked one component at a time with O_NOFOLLOW from a descriptor of the
workspace root, so a folder swapped for a symlink cannot redirect a write outside.
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass, field

from tools.sandbox._launcher import STAGE_WS
from tools.workspace_files import PROTECTED_DIRS

# Top-level folders bound read-only instead of copied into staging: large and not the program's
# to change (environments, caches), or never the program's to change (PROTECTED_DIRS: git
# history, where a planted hook would run at the user's next commit, and LocalCrew's undo).
BOUND_DIRS = (
    *sorted(PROTECTED_DIRS), ".venv", "venv", "node_modules", ".tox", ".nox", ".mypy_cache", ".ruff_cache"
)  # fmt: skip

# Deeper folders are neither listed nor applied: a recursion limit, and no project needs them.
MAX_DEPTH = 64
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


@dataclass
class Manifest:
    """Regular files (size, mtime_ns), symlinks (target) and folders of the workspace."""

    files: dict[str, tuple[int, int]] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)
    dirs: set[str] = field(default_factory=set)


@dataclass
class Applied:
    written: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # "path: why"


def protected(rel: str) -> bool:
    return any(part.lower() in PROTECTED_DIRS for part in rel.split("/"))


def manifest(root: str, skip_top: set[str]) -> Manifest:
    """What the workspace holds now, leaving out the top-level folders bound read-only."""
    found = Manifest()
    fd = os.open(root, DIR_FLAGS)
    try:
        _scan(fd, "", found, skip_top)
    finally:
        os.close(fd)
    return found


def _scan(fd: int, prefix: str, found: Manifest, skip_top: set[str]) -> None:
    with os.scandir(fd) as entries:
        listing = [(entry.name, entry.stat(follow_symlinks=False)) for entry in entries]
    for name, st in listing:
        rel = prefix + name
        if not prefix and name in skip_top and stat.S_ISDIR(st.st_mode):
            continue
        if stat.S_ISREG(st.st_mode):
            found.files[rel] = (st.st_size, st.st_mtime_ns)
        elif stat.S_ISLNK(st.st_mode):
            with contextlib.suppress(OSError):
                found.links[rel] = os.readlink(name, dir_fd=fd)
        elif stat.S_ISDIR(st.st_mode):
            found.dirs.add(rel)
            if rel.count("/") >= MAX_DEPTH:
                continue
            try:
                sub = os.open(name, DIR_FLAGS, dir_fd=fd)
            except OSError:
                continue
            try:
                _scan(sub, rel + "/", found, skip_top)
            finally:
                os.close(sub)


def bound_names(root: str, python_paths: list[str]) -> set[str]:
    """The top-level names the launcher binds instead of copying (it is given this set)."""
    names = set(BOUND_DIRS)
    for path in python_paths:
        real = os.path.realpath(path)
        if os.path.commonpath([root, real]) == root and real != root:
            names.add(os.path.relpath(real, root).split(os.sep)[0])
    return names


def apply_back(
    stage_fd: int,
    root: str,
    before: Manifest,
    staging: dict,
    max_bytes: int,
    max_files: int,
) -> Applied:
    """Apply the staging copy under `stage_fd` (the tmpfs root) to the workspace at `root`."""
    done = Applied()
    copied_at = int(staging.get("copied_at_ns") or 0)
    skip_top = set(staging.get("bound") or ())
    uncopied = list(staging.get("uncopied") or ())
    no_deletes = bool(staging.get("uncopied_more"))
    budget = {"bytes": max_bytes, "files": max_files}
    writes: list[tuple[str, os.stat_result]] = []
    new_dirs: list[str] = []
    seen: set[str] = set()
    seen_dirs: set[str] = {""}  # still plain folders in staging: only their lost files are deleted

    def refuse(rel: str, why: str) -> None:
        if len(done.refused) < 200:
            done.refused.append(f"{rel}: {why}")
        elif len(done.refused) == 200:
            done.refused.append("...: more refused, not listed")

    def walk(fd: int, prefix: str) -> None:
        with os.scandir(fd) as entries:
            listing = [(entry.name, entry.stat(follow_symlinks=False)) for entry in entries]
        for name, st in listing:
            rel = prefix + name
            seen.add(rel)
            if not prefix and name in skip_top:
                continue
            kind = stat.S_IFMT(st.st_mode)
            touched = st.st_ctime_ns > copied_at
            if kind == stat.S_IFDIR:
                if protected(rel) and rel not in before.dirs:
                    refuse(rel, "a new .git or .localcrew folder is never applied")
                    continue
                if rel.count("/") >= MAX_DEPTH:
                    if rel not in before.dirs:
                        refuse(rel, "folders nested too deep")
                    seen.update(f for f in before.files if f.startswith(rel + "/"))  # not deleted
                    continue
                if rel not in before.dirs:
                    new_dirs.append(rel)
                seen_dirs.add(rel)
                try:
                    sub = os.open(name, DIR_FLAGS, dir_fd=fd)
                except OSError as exc:
                    refuse(rel, f"unreadable ({exc.strerror})")
                    continue
                try:
                    walk(sub, rel + "/")
                finally:
                    os.close(sub)
            elif kind == stat.S_IFREG:
                old = before.files.get(rel)
                if old is not None and old == (st.st_size, st.st_mtime_ns) and not touched:
                    continue
                if protected(rel):
                    refuse(rel, "inside .git or .localcrew")
                elif st.st_nlink > 1:
                    refuse(rel, "a hard link")
                else:
                    writes.append((rel, st))
            elif kind == stat.S_IFLNK:
                if before.links.get(rel) is not None and not touched:
                    continue
                refuse(rel, "a symlink")
            else:
                what = {stat.S_IFIFO: "a FIFO", stat.S_IFSOCK: "a socket"}.get(kind, "a device")
                refuse(rel, what)

    ws_fd = os.open(STAGE_WS, DIR_FLAGS, dir_fd=stage_fd)
    try:
        walk(ws_fd, "")
        root_fd = os.open(root, DIR_FLAGS)
        try:
            for rel in new_dirs:
                if _spend(budget, 0, refuse, rel):
                    _make_dirs(root_fd, rel, refuse)
            for rel, st in writes:
                if _spend(budget, st.st_size, refuse, rel):
                    _write_one(ws_fd, root_fd, rel, st, before.files.get(rel), refuse, done)
            if not no_deletes:
                gone = [
                    rel
                    for rel in before.files
                    if rel not in seen
                    and _under_plain_folder(rel, seen, seen_dirs)
                    and not protected(rel)
                    and not any(rel == u or rel.startswith(u + "/") for u in uncopied)
                ]
                for rel in gone:
                    if _spend(budget, 0, refuse, rel):
                        _delete_one(root_fd, rel, before.files[rel], refuse, done)
                emptied = (d for d in before.dirs if d not in seen and not protected(d))
                for rel in sorted(emptied, reverse=True):
                    parent, name = _open_parent(root_fd, rel, create=False)
                    if parent is not None:
                        with contextlib.suppress(OSError):
                            os.rmdir(name, dir_fd=parent)  # only once empty: never a user's file
                        os.close(parent)
        finally:
            os.close(root_fd)
    finally:
        os.close(ws_fd)
    return done


def _under_plain_folder(rel: str, seen: set[str], seen_dirs: set[str]) -> bool:
    """Whether the closest ancestor staging still has is a folder (not a symlink or FIFO put
    in its place: then the files below were not deleted, they were hidden, and stay)."""
    parts = rel.split("/")[:-1]
    for end in range(len(parts), 0, -1):
        ancestor = "/".join(parts[:end])
        if ancestor in seen:
            return ancestor in seen_dirs
    return True


def _spend(budget: dict, size: int, refuse, rel: str) -> bool:
    if budget["files"] <= 0 or size > budget["bytes"]:
        refuse(rel, "over the run's budget of files or bytes")
        return False
    budget["files"] -= 1
    budget["bytes"] -= size
    return True


def _open_parent(root_fd: int, rel: str, create: bool) -> tuple[int | None, str]:
    """A descriptor of the folder holding `rel`, walked without following any symlink."""
    parts = rel.split("/")
    fd = os.dup(root_fd)
    try:
        for part in parts[:-1]:
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o755, dir_fd=fd)
            sub = os.open(part, DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = sub
    except OSError:
        os.close(fd)
        return None, parts[-1]
    return fd, parts[-1]


def _make_dirs(root_fd: int, rel: str, refuse) -> None:
    parent, name = _open_parent(root_fd, rel, create=True)
    if parent is None:
        refuse(rel, "its folder is not a plain folder in the workspace")
        return
    try:
        os.mkdir(name, 0o755, dir_fd=parent)
    except FileExistsError:
        try:
            if not stat.S_ISDIR(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode):
                refuse(rel, "something else is at that path in the workspace")
        except OSError:
            pass
    except OSError as exc:
        refuse(rel, exc.strerror or "cannot create")
    finally:
        os.close(parent)


def _unchanged(parent: int, name: str, old: tuple[int, int] | None) -> bool:
    """The workspace still has what it had before the run at this path (nothing, or that file)."""
    try:
        now = os.stat(name, dir_fd=parent, follow_symlinks=False)
    except FileNotFoundError:
        return old is None
    if old is None:
        return False
    return stat.S_ISREG(now.st_mode) and (now.st_size, now.st_mtime_ns) == old


def _current_mode(parent: int, name: str) -> int:
    try:
        return stat.S_IMODE(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode)
    except OSError:
        return 0o644


def _write_one(ws_fd: int, root_fd: int, rel: str, st: os.stat_result, old, refuse, done: Applied) -> None:
    source_dir, name = _open_parent(ws_fd, rel, create=False)
    if source_dir is None:
        refuse(rel, "unreadable in staging")
        return
    parent, _ = _open_parent(root_fd, rel, create=True)
    if parent is None:
        os.close(source_dir)
        refuse(rel, "its folder is not a plain folder in the workspace")
        return
    tmp = f".{name[:200]}.localcrew-{os.urandom(4).hex()}"
    try:
        if not _unchanged(parent, name, old):
            refuse(rel, "changed in the workspace during the run")
            return
        src = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=source_dir)
        try:
            now = os.fstat(src)
            if not stat.S_ISREG(now.st_mode) or now.st_nlink > 1:
                refuse(rel, "not a single-link regular file")
                return
            # The workspace file keeps its permissions (a 600 .env stays 600); only the exec bit
            # follows the program. Never setuid/setgid, whatever the program set.
            base = _current_mode(parent, name) & 0o666 if old is not None else 0o644
            mode = base | ((base & 0o444) >> 2 if now.st_mode & 0o100 else 0)
            dst = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode, dir_fd=parent)
            try:
                left = now.st_size
                while left > 0:
                    sent = os.sendfile(dst, src, None, min(left, 1 << 30))
                    if sent <= 0:
                        break
                    left -= sent
                os.fchmod(dst, mode)  # the umask is not the program's to decide
            finally:
                os.close(dst)
        finally:
            os.close(src)
        os.utime(tmp, ns=(now.st_atime_ns, now.st_mtime_ns), dir_fd=parent, follow_symlinks=False)
        os.replace(tmp, name, src_dir_fd=parent, dst_dir_fd=parent)
        done.written.append(rel)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=parent)
        refuse(rel, exc.strerror or "cannot write")
    finally:
        os.close(parent)
        os.close(source_dir)


def _delete_one(root_fd: int, rel: str, old: tuple[int, int], refuse, done: Applied) -> None:
    parent, name = _open_parent(root_fd, rel, create=False)
    if parent is None:
        return  # its folder is gone or was replaced: nothing of ours to delete there
    try:
        if _unchanged(parent, name, old):
            os.unlink(name, dir_fd=parent)
            done.deleted.append(rel)
        else:
            refuse(rel, "deleted by the program but changed in the workspace during the run")
    except OSError as exc:
        refuse(rel, exc.strerror or "cannot delete")
    finally:
        os.close(parent)
