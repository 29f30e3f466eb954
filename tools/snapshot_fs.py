"""The workspace as snapshots and undo reach it: one folder handle at a time, never a full path.

Why: a program run as a check can leave a tree whose paths are longer than PATH_MAX (twenty
folders of 250-character names), and every call given such a path fails with "File name too
long"; the old path-based snapshot then failed for every later run, and undo until the folder was
deleted by hand. Here each folder is opened from its parent's handle (tools.confined_fs.Dir, one
name per call, links never followed), so path length does not matter, only depth: folders nested
deeper than MAX_DEPTH are skipped and reported, which bounds the open handles. The same walk
serves every operation undo needs (remove, write back, link, mode), so what a snapshot could save,
undo can put back.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from tools.confined_fs import DIR_FLAGS, USE_DIR_FD, Dir

MAX_DEPTH = 200  # folders deeper than this are skipped and reported (one open handle per level)


def open_root(path: str | os.PathLike[str]) -> Dir:
    """The workspace itself (the user's choice; it may be reached through a link)."""
    return Dir(os.open(path, DIR_FLAGS), []) if USE_DIR_FD else Dir(os.fspath(path), [])


def _dup(d: Dir) -> Dir:
    return Dir(os.dup(d.handle) if isinstance(d.handle, int) else d.handle, list(d.parts))


def open_dir(root: Dir, parts: list[str]) -> Dir:
    """Folder `parts` under root, one component at a time (a joined path may be too long)."""
    current = _dup(root)
    try:
        for name in parts:
            nxt = current.open_dir(name)
            current.close()
            current = nxt
    except BaseException:
        current.close()
        raise
    return current


@contextlib.contextmanager
def parent_of(root: Dir, rel: str) -> Iterator[tuple[Dir, str]]:
    """The open folder holding `rel`, and its name there."""
    parts = rel.split("/")
    d = open_dir(root, parts[:-1])
    try:
        yield d, parts[-1]
    finally:
        d.close()


def _where(d: Dir, name: str) -> tuple[str, int | None]:
    # A name relative to the folder's fd, or (Windows, no fds) the folder's path joined.
    if isinstance(d.handle, int):
        return name, d.handle
    return os.path.join(d.handle, name), None


def symlink(d: Dir, target: str, name: str) -> None:
    path, fd = _where(d, name)
    os.symlink(target, path, dir_fd=fd)


def dir_mode(d: Dir) -> int:
    return stat.S_IMODE(
        os.fstat(d.handle).st_mode if isinstance(d.handle, int) else os.stat(d.handle).st_mode
    )


def chmod_dir(d: Dir, mode: int) -> None:
    if isinstance(d.handle, int):
        os.fchmod(d.handle, mode)
    else:
        os.chmod(d.handle, mode)


def lstat_or_none(root: Dir, rel: str) -> os.stat_result | None:
    try:
        with parent_of(root, rel) as (d, name):
            return d.lstat(name)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        if _is_link_error(exc):
            return None  # a link on the way: nothing of ours is there
        raise


def _is_link_error(exc: OSError) -> bool:
    return exc.errno in (errno.ELOOP, errno.EMLINK)


def _open_writable(parent: Dir, name: str) -> Dir:
    d = parent.open_dir(name)
    # A read-only folder (a run may make one) would refuse to give up its entries.
    with contextlib.suppress(OSError):
        chmod_dir(d, dir_mode(d) | stat.S_IRWXU)
    return d


def remove_tree(parent: Dir, name: str) -> None:
    """Remove folder `name` and all in it, through handles, deepest first, without recursion
    (a tree can be deeper than Python's stack)."""
    frames = [(parent, name, _open_writable(parent, name), None)]
    try:
        while frames:
            up, here, d, names = frames[-1]
            if names is None:
                names = iter(sorted(e.name for e in d.entries()))
                frames[-1] = (up, here, d, names)
            child = next(names, None)
            if child is None:
                d.close()
                frames.pop()
                up.rmdir(here)
                continue
            st = d.lstat(child)
            if stat.S_ISDIR(st.st_mode):
                frames.append((d, child, _open_writable(d, child), None))
            else:
                d.unlink(child)
    finally:
        for _up, _here, d, _names in frames:
            d.close()


@dataclass(frozen=True)
class Found:
    """One entry met by walk(): where it is, and its lstat."""

    rel: str
    folder: Dir  # open while the walk is at this entry: read the entry through this handle
    name: str
    st: os.stat_result


def walk(
    root: Dir, skip_dir: Callable[[str, Dir], bool], report: Callable[[str, str], None]
) -> Iterator[Found]:
    """Every entry under root, depth first, links not followed. A folder is yielded before its
    entries; skip_dir(name, folder) leaves a folder out (not yielded, not entered); report(rel,
    why) names what could not be read (an unreadable or too deep folder) and the walk goes on."""
    frames: list[tuple[str, Dir, Iterator[str]]] = []

    def enter(rel: str, d: Dir) -> None:
        try:
            names = sorted(e.name for e in d.entries())
        except OSError as exc:
            d.close()
            report(rel or ".", f"unreadable directory: {exc.strerror or exc}")
            return
        frames.append((rel, d, iter(names)))

    enter("", _dup(root))
    try:
        while frames:
            rel_dir, d, names = frames[-1]
            name = next(names, None)
            if name is None:
                d.close()
                frames.pop()
                continue
            rel = f"{rel_dir}/{name}" if rel_dir else name
            try:
                st = d.lstat(name)
            except FileNotFoundError:
                continue  # vanished while we walked
            except OSError as exc:
                report(rel, f"unreadable: {exc.strerror or exc}")
                continue
            if not stat.S_ISDIR(st.st_mode):
                yield Found(rel, d, name, st)
                continue
            child = _open_child(d, rel, name, len(frames), skip_dir, report)
            if child is not _SKIP:
                yield Found(rel, d, name, st)
                if child is not None:
                    enter(rel, child)
    finally:
        for _rel, d, _names in frames:
            d.close()


_SKIP = Dir(-1, [])  # a folder skip_dir turned down: not part of the tree at all


def _open_child(
    d: Dir, rel: str, name: str, depth: int,
    skip_dir: Callable[[str, Dir], bool], report: Callable[[str, str], None],
) -> Dir | None:  # fmt: skip
    """The folder to enter; None: it stays in the tree but unread (reported); _SKIP: left out."""
    try:
        child = d.open_dir(name)
    except OSError as exc:
        report(rel, f"unreadable directory: {exc.strerror or exc}")
        return None
    if skip_dir(name, child):
        child.close()
        return _SKIP
    if depth >= MAX_DEPTH:
        child.close()
        report(rel, f"nested deeper than {MAX_DEPTH} folders")
        return None
    return child
