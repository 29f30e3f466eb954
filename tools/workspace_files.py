"""Workspace-confined file operations for the crew's file tools.

Every path an agent gives us is untrusted text. `WorkspaceFiles.resolve` turns it into a real
location inside the workspace or raises `WorkspaceError` with a message a human (or the model)
can act on: which path, and why it was refused.

Rules, in the order they are checked:
- the path must be a non-empty string without NUL bytes;
- it must be relative: no POSIX root (`/x`), no Windows drive (`C:\\x`, `C:x`) or UNC (`\\\\srv`);
  backslashes are treated as separators because models often write Windows paths;
- `..` may not climb above the workspace root (checked lexically, before touching the disk);
- no symlink component may point outside the workspace, even one in the middle of the path;
- an existing target must be a regular file or a directory (no devices, fifos or sockets);
- a file with more than one hard link is not read (its other name may be outside);
- writes and deletes never go into `.git` or `.localcrew` (the user's history and ours).

Every open goes through `tools.confined_fs`: walked from a directory fd of the root with
openat2(RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS) or per-component O_NOFOLLOW, so a folder swapped for
a symlink while we work (check-then-open race) is refused instead of followed. Inside links are
followed by reading them ourselves and walking their target again from the root.

Writes are atomic (temp file in the same directory fd, fsync, renameat), so a crash leaves either
the old or the new content, never half a file. A `before_write` hook sees every path before it is
written or deleted; `tools.run_snapshot` uses it to journal what a crew run touched. The hook may
return a function: it is called with the bytes written (None: the file was deleted) once the
write is done, so the journal knows what the run's own version was.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tools.confined_fs import ConfinedRoot, Dir, WorkspaceError, split_rel

# Directories that are never listed or snapshotted: tool state, VCS data, environments, caches.
SKIP_DIRS = frozenset(
    {
        ".git",
        ".localcrew",
        ".venv",
        "venv",
        "node_modules",
        "__pycache__",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".benchmarks",
    }
)
# Directories no agent may write into (compared case-insensitively for case-folding filesystems).
PROTECTED_DIRS = frozenset({".git", ".localcrew"})

__all__ = [
    "DIFF_LIMIT_BYTES",
    "PROTECTED_DIRS",
    "SKIP_DIRS",
    "WorkspaceError",
    "WorkspaceFiles",
    "WriteResult",
]


@dataclass(frozen=True)
class WriteResult:
    """What `write_text` did, with enough to show the user a diff."""

    rel: str  # workspace-relative posix path
    path: Path  # absolute path that was written
    bytes_written: int
    created: bool  # True: the file did not exist before; False: it was there (modified or the same)
    old_content: str | None  # previous text (None when created or too big to compare), for diffs
    new_content: str
    old_size: int = 0  # bytes the replaced file had

    @property
    def action(self) -> str:
        if self.created:
            return "created"
        return "unchanged" if self.old_content == self.new_content else "modified"

    def diff(self) -> str:
        if not self.created and (self.old_content is None or len(self.new_content) > DIFF_LIMIT_BYTES):
            return (
                f"--- a/{self.rel}\n+++ b/{self.rel}\n"
                f"(not compared: {self.old_size:,} bytes replaced by {self.bytes_written:,})\n"
            )
        return unified_diff(self.rel, self.old_content, self.new_content)


# Above this a replaced file is not read back for a diff: a data file of gigabytes would otherwise
# be read into memory, compared line by line and sent to the page.
DIFF_LIMIT_BYTES = 512 * 1024


def unified_diff(rel: str, old: str | None, new: str | None) -> str:
    """A git-style unified diff of one file; None on either side means 'file absent'."""
    old_lines = (old or "").splitlines(keepends=True)
    new_lines = (new or "").splitlines(keepends=True)
    fromfile = "/dev/null" if old is None else f"a/{rel}"
    tofile = "/dev/null" if new is None else f"b/{rel}"
    out: list[str] = []
    for line in difflib.unified_diff(old_lines, new_lines, fromfile, tofile):
        out.append(line)
        if not line.endswith("\n"):
            # Like git: make a missing final newline visible instead of gluing lines together.
            out.append("\n\\ No newline at end of file\n")
    return "".join(out)


def _current_umask() -> int:
    # os.umask() can only be read by setting it, which races with other threads; Linux exposes it.
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except OSError:
        pass
    return 0o022


class WorkspaceFiles:
    """File operations confined to one workspace directory."""

    def __init__(self, root: Path | str, before_write: Callable[[Path], object] | None = None):
        root_path = Path(root)
        if not root_path.is_dir():
            raise WorkspaceError(f"workspace {str(root)!r} is not an existing directory")
        # Compare against the real root so a workspace reached through a symlink still works.
        self.root = Path(os.path.realpath(root_path))
        self.fs = ConfinedRoot(self.root)
        self.before_write = before_write

    # -- confinement -------------------------------------------------------------------------

    def _canonical(self, rel: str, follow_last: bool = True) -> list[str]:
        """`rel` with inside links resolved, as link-free parts; WorkspaceError otherwise."""
        try:
            return self.fs.canonical(split_rel(rel), follow_last=follow_last, rel=rel)
        except OSError as exc:  # a name too long, a permission: the same kind of error as the rest
            raise WorkspaceError(f"path {str(rel)[:200]!r}: {exc.strerror or exc}") from None

    def resolve(self, rel: str) -> Path:
        """The real absolute path for `rel`, or WorkspaceError if it is not safely inside.

        A name only: open files through this class (or tools.confined_fs), never by this path,
        or the check and the open race against a program swapping in a link."""
        parts = self._canonical(rel)
        if parts:
            try:
                with self.fs.open_dir(parts[:-1]) as parent:
                    mode = parent.lstat(parts[-1]).st_mode
            except (FileNotFoundError, NotADirectoryError):
                mode = None  # not there yet: a file about to be created
            except OSError as exc:
                raise WorkspaceError(f"path {str(rel)[:200]!r}: {exc.strerror or exc}") from None
            if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                raise WorkspaceError(
                    f"path {rel!r} is not a regular file or directory (device, fifo or socket)"
                )
        return self.root.joinpath(*parts)

    def lstat(self, rel: str) -> os.stat_result:
        """lstat of what `rel` names (after inside links), looked up through directory fds, so
        the answer is never about a file outside. FileNotFoundError when it is not there."""
        parts = self._canonical(rel)
        if not parts:
            return os.stat(self.root)
        try:
            with self.fs.open_dir(parts[:-1]) as parent:
                return parent.lstat(parts[-1])
        except NotADirectoryError:
            raise FileNotFoundError(rel) from None

    def relative(self, path: Path) -> str:
        """Workspace-relative posix form of an absolute path inside the workspace."""
        return Path(path).relative_to(self.root).as_posix() or "."

    def _check_changeable(self, rel: str, parts: list[str], verb: str) -> None:
        for part in parts:
            if part.lower() in PROTECTED_DIRS:
                raise WorkspaceError(f"refusing to {verb} {rel!r}: {part}/ is protected")

    # -- reading -----------------------------------------------------------------------------

    def list_files(self, subdir: str = ".", max_entries: int = 2000) -> list[str]:
        """Regular files under `subdir` as sorted relative posix paths (at most `max_entries`).

        Skips VCS, tool, venv and cache directories and never descends into a symlinked
        directory (a link loop or a link to / or to the home cannot blow up or leak into the
        listing). A link to a regular file inside the workspace is listed, since read_text
        follows it (confined); links to folders or outside are left out.
        """
        start = self._canonical(subdir)
        try:
            with self.fs.open_dir(start):
                pass
        except (OSError, WorkspaceError):
            raise WorkspaceError(f"cannot list {subdir!r}: not a directory") from None
        found: list[str] = []
        stack = [start]
        while stack and len(found) < max_entries:
            directory = stack.pop()
            try:
                entries = self.fs.listdir(directory)
            except (OSError, WorkspaceError):
                continue  # unreadable, or swapped for a link since it was listed: list what we can
            subdirs: list[list[str]] = []
            for entry in entries:
                parts = [*directory, entry.name]
                if entry.kind == "dir":
                    if entry.name not in SKIP_DIRS:
                        subdirs.append(parts)
                    continue
                if entry.kind == "link" and not self.fs.regular_file_inside(parts):
                    continue
                if entry.kind == "other":
                    continue  # fifo, socket, device
                found.append("/".join(parts))
                if len(found) >= max_entries:
                    break
            stack.extend(reversed(subdirs))  # depth-first, alphabetical
        return sorted(found)

    def read_text(self, rel: str, max_bytes: int = 200_000) -> str:
        """UTF-8 text of a regular file; WorkspaceError for directories, binary or huge files."""
        parts = split_rel(rel)
        try:
            data, st = self.fs.read_bytes(parts, max_bytes + 1, rel=rel)
        except (FileNotFoundError, NotADirectoryError):
            raise WorkspaceError(f"cannot read {rel!r}: file does not exist") from None
        except IsADirectoryError:
            raise WorkspaceError(f"cannot read {rel!r}: it is a directory") from None
        except OSError as exc:
            raise WorkspaceError(f"cannot read {rel!r}: {exc.strerror or exc}") from None
        if st.st_size > max_bytes:
            raise WorkspaceError(
                f"cannot read {rel!r}: {st.st_size} bytes is over the {max_bytes} byte limit"
            )
        if len(data) > max_bytes:  # grew after fstat
            raise WorkspaceError(f"cannot read {rel!r}: over the {max_bytes} byte limit")
        if b"\x00" in data:
            raise WorkspaceError(f"cannot read {rel!r}: binary file (contains NUL bytes)")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise WorkspaceError(f"cannot read {rel!r}: not valid UTF-8 text (byte {exc.start})") from None

    # -- changing ----------------------------------------------------------------------------

    def _old_state(self, parent: list[str], name: str, rel: str) -> tuple[os.stat_result | None, str | None]:
        """What `name` holds now: (stat, text for the diff); (None, None) when it is not there."""
        try:
            with self.fs.open_dir(parent) as folder:
                st = folder.lstat(name)
                if stat.S_ISDIR(st.st_mode):
                    raise WorkspaceError(f"cannot write {rel!r}: it is a directory")
                if stat.S_ISLNK(st.st_mode):
                    return None, None  # swapped in since it was resolved: the rename replaces the link
                if not stat.S_ISREG(st.st_mode):
                    raise WorkspaceError(f"cannot write {rel!r}: not a regular file (device, fifo or socket)")
                fd = folder.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except (FileNotFoundError, NotADirectoryError):
            return None, None
        with os.fdopen(fd, "rb") as fh:
            st = os.fstat(fh.fileno())
            # A hard-linked file is replaced (the rename never writes through it) but not shown:
            # its other name may be outside the workspace.
            if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1 or st.st_size > DIFF_LIMIT_BYTES:
                return st, None
            return st, fh.read(DIFF_LIMIT_BYTES + 1).decode("utf-8", errors="replace")

    def write_text(self, rel: str, content: str) -> WriteResult:
        """Atomically write UTF-8 text, creating parent directories inside the workspace."""
        if not isinstance(content, str):
            raise WorkspaceError(f"cannot write {rel!r}: content must be text")
        parts = self._canonical(rel)
        if not parts:
            raise WorkspaceError(f"cannot write {rel!r}: it is a directory")
        self._check_changeable(rel, parts, "write")
        parent, name = parts[:-1], parts[-1]
        path = self.root.joinpath(*parts)
        try:
            old_stat, old_content = self._old_state(parent, name, rel)
            written = self.before_write(path) if self.before_write is not None else None
            data = content.encode("utf-8")
            with self.fs.make_dirs(parent, rel=rel) as folder:
                # mkstemp-like 0600 file; keep the old mode, or what a plain open() would give.
                mode = stat.S_IMODE(old_stat.st_mode) if old_stat is not None else 0o666 & ~_current_umask()
                _replace_in(folder, name, data, mode)
            if callable(written):
                written(data)
        except OSError as exc:
            raise WorkspaceError(f"cannot write {rel!r}: {exc.strerror or exc}") from None
        old_size = old_stat.st_size if old_stat is not None else 0
        return WriteResult("/".join(parts), path, len(data), old_stat is None, old_content, content, old_size)

    def delete(self, rel: str) -> None:
        """Delete a file, a link (not what it points to) or an empty directory."""
        parts = self._canonical(rel, follow_last=False)
        if not parts:
            raise WorkspaceError("refusing to delete the workspace root")
        self._check_changeable(rel, parts, "delete")
        path = self.root.joinpath(*parts)
        try:
            with self.fs.open_dir(parts[:-1]) as folder:
                name = parts[-1]
                try:
                    st = folder.lstat(name)
                except FileNotFoundError:
                    raise WorkspaceError(f"cannot delete {rel!r}: it does not exist") from None
                if stat.S_ISDIR(st.st_mode):
                    with folder.open_dir(name) as inner:
                        if inner.entries():
                            raise WorkspaceError(f"cannot delete {rel!r}: directory is not empty")
                    if self.before_write is not None:
                        self.before_write(path)
                    folder.rmdir(name)
                else:
                    written = self.before_write(path) if self.before_write is not None else None
                    folder.unlink(name)
                    if callable(written):
                        written(None)
                folder.fsync()
        except (FileNotFoundError, NotADirectoryError):
            raise WorkspaceError(f"cannot delete {rel!r}: it does not exist") from None
        except OSError as exc:
            raise WorkspaceError(f"cannot delete {rel!r}: {exc.strerror or exc}") from None


def _replace_in(folder: Dir, name: str, data: bytes, mode: int) -> None:
    """Temp file + fsync + rename, all inside one open folder: nothing is looked up by path."""
    fd, tmp = folder.create_temp(f".{name[:200]}.")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
            if hasattr(os, "fchmod"):
                os.fchmod(fh.fileno(), mode)
        folder.rename(tmp, name)
        tmp = ""
    finally:
        if tmp:
            with contextlib.suppress(OSError):
                folder.unlink(tmp)
    folder.fsync()


MAX_SCANNED_FILES = 200  # Python files a scan of the project reads at most


def python_sources(files: WorkspaceFiles, limit: int = MAX_SCANNED_FILES) -> dict[str, str]:
    """The project's Python files (the first `limit`), by path; unreadable ones are left out."""
    sources = {}
    for rel in [f for f in files.list_files() if f.endswith(".py")][:limit]:
        try:
            sources[rel] = files.read_text(rel)
        except (ValueError, OSError):
            continue
    return sources
