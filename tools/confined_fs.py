"""Open, list and write files under one root without ever letting the kernel follow a link.

Why: a program the crew ran may leave symlinks, FIFOs or hard links in the workspace, and may swap
a folder for a symlink while the IDE works on it. Checking a path and then opening it by name
(realpath, then open) loses that race; here every access starts from a directory fd of the root
and the kernel is never asked to follow a symbolic link:

- Linux >= 5.6: ``openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)`` walks
  the whole relative path in one call, refusing ``..`` above the root and any link on the way;
- other POSIX systems (older Linux, macOS, BSD): one ``openat(O_NOFOLLOW | O_DIRECTORY)`` per
  component, from the root's fd down;
- Windows (no ``dir_fd``): ``lstat`` of every component and a ``realpath`` check before opening.
  That is still check-then-open (racy), the best the platform offers without native calls.

A symlink whose target stays inside the root is followed only where the caller asks
(``follow=True``: the crew's file tools, the editor): we read the link ourselves, resolve it
lexically against the folders already walked and walk the result again from the root, so each hop
is re-checked and the kernel still follows nothing. Listings never follow links at all.

Opens are non-blocking (a FIFO cannot hang the IDE), anything but a regular file is refused after
``fstat``, and a file with more than one hard link is refused for reading: its other name may be
outside the workspace (a program can hard-link ``~/.ssh/id_rsa`` into it when both are on one
file system), and nothing in the file itself tells which name is the real one.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import platform
import re
import secrets
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass

MAX_LINKS = 40  # as the kernel's own limit: a link loop ends with an error, not a hang

O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
O_NOCTTY = getattr(os, "O_NOCTTY", 0)
O_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation
READ_FLAGS = os.O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_BINARY
DIR_FLAGS = os.O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC

# dir_fd walking needs all of these; Windows has none of them.
USE_DIR_FD = (
    bool(O_NOFOLLOW and O_DIRECTORY)
    and all(
        f in os.supports_dir_fd
        for f in (os.open, os.stat, os.readlink, os.mkdir, os.rename, os.unlink, os.rmdir)
    )
    and os.scandir in os.supports_fd
)

# FreeBSD answers O_NOFOLLOW on a link with EMLINK, Linux and macOS with ELOOP.
_LINK_ERRNOS = {errno.ELOOP, errno.EMLINK}

_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:")


class WorkspaceError(ValueError):
    """A path or file operation was refused; the message says which path and why."""


# -- openat2 ---------------------------------------------------------------------------------------

_RESOLVE_NO_MAGICLINKS = 0x02
_RESOLVE_NO_SYMLINKS = 0x04
_RESOLVE_BENEATH = 0x08
_RESOLVE = _RESOLVE_BENEATH | _RESOLVE_NO_SYMLINKS | _RESOLVE_NO_MAGICLINKS
# openat2 has the same number on every architecture that has it (the unified syscall table).
_SYS_OPENAT2 = {"x86_64": 437, "amd64": 437, "aarch64": 437, "arm64": 437}


class _OpenHow(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64), ("resolve", ctypes.c_uint64)]


def _load_openat2():  # -> Callable | None
    number = _SYS_OPENAT2.get(platform.machine().lower())
    if not sys.platform.startswith("linux") or number is None or not USE_DIR_FD:
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        syscall = libc.syscall
    except (OSError, AttributeError):
        return None
    syscall.restype = ctypes.c_long
    syscall.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t]

    def openat2(dirfd: int, path: str, flags: int, mode: int = 0) -> int:
        # openat2 refuses a mode without O_CREAT (open() ignores it).
        how = _OpenHow(flags | O_CLOEXEC, mode if flags & os.O_CREAT else 0, _RESOLVE)
        encoded = os.fsencode(path)
        for _ in range(8):  # EAGAIN: the kernel saw a concurrent rename and asks for a retry
            fd = syscall(number, dirfd, encoded, ctypes.byref(how), ctypes.sizeof(how))
            if fd >= 0:
                return fd
            err = ctypes.get_errno()
            if err not in (errno.EAGAIN, errno.EINTR):
                break
        raise OSError(err, os.strerror(err), path)

    # Probe once: seccomp profiles (some containers) answer ENOSYS or EPERM to unknown calls.
    try:
        os.close(openat2(-100, ".", DIR_FLAGS))  # AT_FDCWD
    except OSError:
        return None
    return openat2


_openat2 = _load_openat2()


def mechanism() -> str:
    """Which confinement this machine gets (for doctor and the README)."""
    if _openat2 is not None:
        return "openat2 (RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_MAGICLINKS)"
    if USE_DIR_FD:
        return "per-component openat(O_NOFOLLOW|O_DIRECTORY)"
    return "lstat + realpath checks (not race-free on this platform)"


# -- paths -----------------------------------------------------------------------------------------


def split_rel(rel: str) -> list[str]:
    """Lexical parts of a workspace-relative path ('.' is []); refuses absolute paths and '..'
    above the root. Backslashes count as separators because models often write Windows paths."""
    if not isinstance(rel, str):
        raise WorkspaceError(f"path must be a string, got {type(rel).__name__}")
    if not rel.strip():
        raise WorkspaceError("empty path: give a path relative to the workspace root")
    if "\x00" in rel:
        raise WorkspaceError(f"path {rel!r} contains a NUL byte")
    if rel.startswith(("/", "\\")) or _WINDOWS_DRIVE.match(rel):
        raise WorkspaceError(f"path {rel!r} is absolute; give a path relative to the workspace root")
    parts: list[str] = []
    for part in rel.replace("\\", "/").split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                raise WorkspaceError(f"path {rel!r} uses '..' to leave the workspace")
            parts.pop()
        else:
            parts.append(part)
    return parts


def _is_within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


# -- directory handles -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One name in a listed folder. kind: 'dir', 'file', 'link' or 'other' (fifo, socket,
    device); a link is reported as a link, never by what it points to."""

    name: str
    kind: str
    size: int = 0
    mtime_ns: int = 0
    nlink: int = 1


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "dir"
    return "file" if stat.S_ISREG(mode) else "other"


class Dir:
    """An open folder inside the root: names are looked up in it, never followed if links.

    POSIX: wraps a directory fd. Windows: wraps the folder's checked path."""

    def __init__(self, handle: int | str, parts: list[str]):
        self.handle = handle
        self.parts = parts  # where it is, relative to the root (no links in it)

    def close(self) -> None:
        if isinstance(self.handle, int):
            os.close(self.handle)
            self.handle = -1

    def __enter__(self) -> Dir:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _path(self, name: str) -> str | bytes:
        return name if isinstance(self.handle, int) else os.path.join(self.handle, name)

    def _fd(self) -> int | None:
        return self.handle if isinstance(self.handle, int) else None

    def lstat(self, name: str) -> os.stat_result:
        if isinstance(self.handle, int):  # the common case first: the index calls this per file
            return os.stat(name, dir_fd=self.handle, follow_symlinks=False)
        return os.stat(self._path(name), follow_symlinks=False)

    def readlink(self, name: str) -> str:
        return os.readlink(self._path(name), dir_fd=self._fd())

    def open(self, name: str, flags: int, mode: int = 0o666) -> int:
        """os.open of a name in this folder; the last component is never followed."""
        if isinstance(self.handle, int):
            if _openat2 is not None:
                return _openat2(self.handle, name, flags, mode)
            return os.open(name, flags | O_NOFOLLOW | O_CLOEXEC, mode, dir_fd=self.handle)
        path = self._path(name)
        if os.path.islink(path) or _is_junction(path):
            raise OSError(errno.ELOOP, "is a symbolic link", name)
        return os.open(path, flags | O_NOFOLLOW, mode)

    def open_dir(self, name: str) -> Dir:
        if isinstance(self.handle, int):
            try:
                return Dir(self.open(name, DIR_FLAGS), [*self.parts, name])
            except NotADirectoryError:
                # Linux answers O_DIRECTORY|O_NOFOLLOW on a link with ENOTDIR: say it was a link.
                if stat.S_ISLNK(self.lstat(name).st_mode):
                    raise OSError(errno.ELOOP, "is a symbolic link", name) from None
                raise
        path = self._path(name)
        if os.path.islink(path) or _is_junction(path):
            raise OSError(errno.ELOOP, "is a symbolic link", name)
        if not os.path.lexists(path):
            raise FileNotFoundError(errno.ENOENT, "no such file or directory", name)
        if not os.path.isdir(path):
            raise NotADirectoryError(errno.ENOTDIR, "not a directory", name)
        return Dir(str(path), [*self.parts, name])

    def mkdir(self, name: str, mode: int = 0o777) -> None:
        os.mkdir(self._path(name), mode, dir_fd=self._fd())

    def rename(self, old: str, new: str) -> None:
        fd = self._fd()
        os.replace(self._path(old), self._path(new), src_dir_fd=fd, dst_dir_fd=fd)

    def unlink(self, name: str) -> None:
        os.unlink(self._path(name), dir_fd=self._fd())

    def rmdir(self, name: str) -> None:
        os.rmdir(self._path(name), dir_fd=self._fd())

    def chmod_fd(self, fd: int, mode: int) -> None:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, mode)

    def fsync(self) -> None:
        # Makes a rename durable; not possible (nor needed) on Windows.
        if isinstance(self.handle, int):
            os.fsync(self.handle)

    def create_temp(self, prefix: str, suffix: str = ".tmp") -> tuple[int, str]:
        """A new private file in this folder (O_EXCL: never an existing name or a link's target)."""
        for _ in range(100):
            name = f"{prefix}{secrets.token_hex(4)}{suffix}"
            try:
                flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_CLOEXEC | O_BINARY
                return self.open(name, flags, 0o600), name
            except FileExistsError:
                continue
        raise FileExistsError(errno.EEXIST, "no free temporary name", prefix)

    def read_regular(
        self, name: str, limit: int, allow_hardlinks: bool = False
    ) -> tuple[bytes, os.stat_result]:
        """Up to `limit` bytes of regular file `name` here (never a link, never blocking)."""
        fd = self.open(name, READ_FLAGS)
        st = _checked_regular(fd, "/".join([*self.parts, name]), allow_hardlinks)
        return _read_fd(fd, limit, st), st

    def entries(self, with_stat: bool = False) -> list[Entry]:
        """The folder's names, sorted, with their kind as stored (links are not followed)."""
        out: list[Entry] = []
        # scandir(fd) duplicates the fd itself; entries' stat() uses ours, so keep it open meanwhile.
        with os.scandir(self.handle) as it:
            for e in it:
                try:
                    if with_stat or not isinstance(self.handle, int):
                        st = e.stat(follow_symlinks=False)
                        junction = not isinstance(self.handle, int) and _is_junction(e.path)
                        kind = "link" if (e.is_symlink() or junction) else _kind(st.st_mode)
                        out.append(Entry(e.name, kind, st.st_size, st.st_mtime_ns, st.st_nlink))
                        continue
                    if e.is_symlink():
                        kind = "link"
                    elif e.is_dir(follow_symlinks=False):
                        kind = "dir"
                    elif e.is_file(follow_symlinks=False):
                        kind = "file"
                    else:
                        kind = "other"
                except OSError:
                    continue  # vanished while listed
                out.append(Entry(e.name, kind))
        out.sort(key=lambda entry: entry.name)
        return out


def _checked_regular(fd: int, rel: str, allow_hardlinks: bool) -> os.stat_result:
    """fstat of an fd just opened; closes it and raises WorkspaceError unless it may be read."""
    st = os.fstat(fd)
    problem = ""
    if stat.S_ISDIR(st.st_mode):
        problem = "it is a directory"
    elif not stat.S_ISREG(st.st_mode):
        problem = "not a regular file (device, fifo or socket)"
    elif st.st_nlink > 1 and not allow_hardlinks:
        problem = (
            f"it has {st.st_nlink} hard links, and another name of the same file may be outside the workspace"
        )
    if problem:
        os.close(fd)
        raise WorkspaceError(f"cannot read {rel!r}: {problem}")
    return st


def _read_fd(fd: int, limit: int, st: os.stat_result) -> bytes:
    """Up to `limit` bytes, then close. Sized by fstat: a buffered read(limit) would allocate the
    whole limit (a megabyte for the index) for every small file."""
    try:
        chunks, total = [], 0
        want = min(limit, st.st_size + 1)  # +1: a file that grew since fstat is still noticed
        while total < limit:
            size = want - total if total < want else 1 << 16  # past fstat's size: it grew, go on
            chunk = os.read(fd, min(size, limit - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _is_junction(path: str | bytes) -> bool:
    isjunction = getattr(os.path, "isjunction", None)  # Python 3.12+, Windows junctions
    return bool(isjunction and isjunction(path))


def _is_link_error(exc: OSError) -> bool:
    return exc.errno in _LINK_ERRNOS


# -- the root --------------------------------------------------------------------------------------


class ConfinedRoot:
    """Files under one folder, reached only through it."""

    def __init__(self, root: str | os.PathLike[str]):
        self.path = os.path.realpath(root)
        self._given = os.path.abspath(root)

    @contextlib.contextmanager
    def _root(self) -> Iterator[Dir]:
        # The root itself is the user's choice and may be reached through a link.
        d = Dir(os.open(self.path, DIR_FLAGS), []) if USE_DIR_FD else Dir(self.path, [])
        try:
            yield d
        finally:
            d.close()

    # -- walking -----------------------------------------------------------------------------

    def _open_parts(self, root: Dir, parts: list[str], flags: int, mode: int = 0o666) -> int:
        """Open a link-free relative path: one openat2 call, or one openat per component.
        OSError(ELOOP) if a link is met on the way (the caller decides what that means)."""
        if not parts:
            if isinstance(root.handle, int):
                return os.dup(root.handle) if flags & O_DIRECTORY else root.open(".", flags, mode)
            return os.open(root.handle, flags)
        if _openat2 is not None and isinstance(root.handle, int):
            return _openat2(root.handle, "/".join(parts), flags, mode)
        current = root
        try:
            for name in parts[:-1]:
                nxt = current.open_dir(name)
                if current is not root:
                    current.close()
                current = nxt
            return current.open(parts[-1], flags, mode)
        finally:
            if current is not root:
                current.close()

    def _link_parts(self, target: str, here: list[str], rel: str, shown: str) -> list[str]:
        """Where a link found in folder `here` points, as root-relative parts; refuses outside."""
        outside = WorkspaceError(
            f"path {rel!r} goes through symlink {shown!r} which points outside the workspace (to {target})"
        )
        if os.path.isabs(target) or _WINDOWS_DRIVE.match(target):
            norm = os.path.normpath(target)
            for base in (self.path, self._given):
                if _is_within(norm, base):
                    inner = os.path.relpath(norm, base)
                    return [] if inner == "." else inner.replace("\\", "/").split("/")
            raise outside
        parts = list(here)
        for part in target.replace("\\", "/").split("/"):
            if part in ("", "."):
                continue
            if part == "..":
                if not parts:
                    raise outside
                parts.pop()  # `here` holds real folders only, so '..' is lexical
            else:
                parts.append(part)
        return parts

    def canonical(self, parts: list[str], *, follow_last: bool = True, rel: str = "") -> list[str]:
        """The same place as `parts` with every inside link resolved; WorkspaceError for a link
        that leads outside. A missing tail is kept as given (a file about to be created)."""
        rel = rel or "/".join(parts) or "."
        todo, links = list(parts), 0
        with self._root() as root:
            current, done = root, []
            try:
                while todo:
                    name = todo.pop(0)
                    try:
                        st = current.lstat(name)
                    except (FileNotFoundError, NotADirectoryError):
                        return [*done, name, *todo]
                    if stat.S_ISLNK(st.st_mode) or (not USE_DIR_FD and _is_junction(current._path(name))):
                        if not todo and not follow_last:
                            return [*done, name]
                        links += 1
                        if links > MAX_LINKS:
                            raise WorkspaceError(f"path {rel!r}: too many levels of symbolic links")
                        shown = "/".join([*done, name])
                        try:
                            target = current.readlink(name)
                        except OSError:
                            target = ""  # swapped back meanwhile: walk it again
                        todo = (
                            [*self._link_parts(target, done, rel, shown), *todo]
                            if target
                            else [*done, name, *todo]
                        )
                        if current is not root:
                            current.close()
                        current, done = root, []
                        continue
                    if not todo:
                        return [*done, name]
                    if not stat.S_ISDIR(st.st_mode):
                        return [*done, name, *todo]  # a file in the middle: the caller's open says so
                    nxt = current.open_dir(name)  # ELOOP here: swapped for a link since lstat
                    if current is not root:
                        current.close()
                    current = nxt
                    done.append(name)
                return done
            finally:
                if current is not root:
                    current.close()

    def _open(self, parts: list[str], flags: int, *, follow: bool, rel: str) -> tuple[int, list[str]]:
        """Open with the fast path first; only a link met on the way costs a userspace walk."""
        with self._root() as root:
            try:
                return self._open_parts(root, parts, flags), parts
            except OSError as exc:
                if not _is_link_error(exc):
                    raise
                if not follow:
                    raise WorkspaceError(
                        f"{rel!r} is or goes through a symbolic link; links are not followed here"
                    ) from None
            for _ in range(3):  # a link swapped in and out again between walk and open
                canon = self.canonical(parts, follow_last=follow, rel=rel)
                try:
                    return self._open_parts(root, canon, flags), canon
                except OSError as exc:
                    if not _is_link_error(exc):
                        raise
        raise WorkspaceError(f"path {rel!r} kept changing (a symlink was swapped in) while being opened")

    # -- public operations -------------------------------------------------------------------

    def open_regular(
        self, parts: list[str], *, follow: bool = True, rel: str = "", allow_hardlinks: bool = False
    ) -> tuple[int, os.stat_result]:
        """An fd for reading a regular file, and its fstat. FileNotFoundError if it is missing;
        WorkspaceError for a directory, a fifo/socket/device, a link out, or a hard-linked file."""
        rel = rel or "/".join(parts) or "."
        try:
            fd, _ = self._open(parts, READ_FLAGS, follow=follow, rel=rel)
        except IsADirectoryError:
            raise WorkspaceError(f"cannot read {rel!r}: it is a directory") from None
        return fd, _checked_regular(fd, rel, allow_hardlinks)

    def read_bytes(
        self,
        parts: list[str],
        limit: int,
        *,
        follow: bool = True,
        rel: str = "",
        allow_hardlinks: bool = False,
    ) -> tuple[bytes, os.stat_result]:
        """Up to `limit` bytes of a regular file (callers pass their maximum + 1 to detect 'too big')."""
        fd, st = self.open_regular(parts, follow=follow, rel=rel, allow_hardlinks=allow_hardlinks)
        return _read_fd(fd, limit, st), st

    def open_dir(self, parts: list[str], *, follow: bool = False, rel: str = "") -> Dir:
        """An open folder (close it, or use `with`); follow=False refuses any link on the way."""
        rel = rel or "/".join(parts) or "."
        if not USE_DIR_FD:
            canon = self.canonical(parts, rel=rel) if follow else parts
            with self._root() as root:
                current = root
                for name in canon:
                    current = current.open_dir(name)
                return Dir(current.handle, canon)
        fd, canon = self._open(parts, DIR_FLAGS, follow=follow, rel=rel)
        return Dir(fd, canon)

    def make_dirs(self, parts: list[str], *, rel: str = "") -> Dir:
        """Open folder `parts` (link-free), creating what is missing one confined mkdir at a time."""
        rel = rel or "/".join(parts) or "."
        with self._root() as root:
            current = Dir(os.dup(root.handle), []) if isinstance(root.handle, int) else root
            try:
                for name in parts:
                    try:
                        nxt = current.open_dir(name)
                    except FileNotFoundError:
                        with contextlib.suppress(FileExistsError):
                            current.mkdir(name)
                        nxt = current.open_dir(name)
                    except NotADirectoryError:
                        shown = "/".join([*current.parts, name])
                        raise WorkspaceError(f"cannot write {rel!r}: {shown!r} is a file") from None
                    except OSError as exc:
                        if _is_link_error(exc):
                            shown = "/".join([*current.parts, name])
                            raise WorkspaceError(
                                f"cannot write {rel!r}: {shown!r} became a symbolic link"
                            ) from None
                        raise
                    current.close()
                    current = nxt
                result, current = current, None
                return result
            finally:
                if current is not None:
                    current.close()

    def listdir(self, parts: list[str], *, with_stat: bool = False) -> list[Entry]:
        """Names in a folder reached without any link (a linked folder is never listed)."""
        with self.open_dir(parts, follow=False) as d:
            return d.entries(with_stat=with_stat)

    def regular_file_inside(self, parts: list[str]) -> bool:
        """Whether `parts` (maybe a link) leads, inside the root, to a regular file."""
        try:
            canon = self.canonical(parts)
            if not canon:
                return False
            with self.open_dir(canon[:-1]) as d:
                return stat.S_ISREG(d.lstat(canon[-1]).st_mode)
        except (OSError, WorkspaceError):
            return False


def read_bytes_no_links(path: str | os.PathLike[str], limit: int) -> tuple[bytes, os.stat_result]:
    """Read a file by absolute path when no component of that path may be a link (the caller
    resolved the root already): the code index reads what its link-free scan listed."""
    absolute = os.path.abspath(path)
    anchor = os.path.splitdrive(absolute)[0] + os.sep
    parts = [p for p in absolute[len(anchor) :].replace("\\", "/").split("/") if p]
    return ConfinedRoot(anchor).read_bytes(parts, limit, follow=False, rel=absolute)
