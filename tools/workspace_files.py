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
- writes and deletes never go into `.git` or `.localcrew` (the user's history and ours).

Writes are atomic (temp file in the same directory, fsync, `os.replace`), so a crash leaves either
the old or the new content, never half a file. A `before_write` hook sees every path before it is
written or deleted; `tools.run_snapshot` uses it to journal what a crew run touched.
"""

from __future__ import annotations

import difflib
import os
import re
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

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
    }
)
# Directories no agent may write into (compared case-insensitively for case-folding filesystems).
PROTECTED_DIRS = frozenset({".git", ".localcrew"})

_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:")


class WorkspaceError(ValueError):
    """A path or file operation was refused; the message says which path and why."""


@dataclass(frozen=True)
class WriteResult:
    """What `write_text` did, with enough to show the user a diff."""

    rel: str  # workspace-relative posix path
    path: Path  # absolute path that was written
    bytes_written: int
    created: bool  # True: the file did not exist before; False: it was modified
    old_content: str | None  # previous text (None when created or too big to compare), for diffs
    new_content: str
    old_size: int = 0  # bytes the replaced file had

    @property
    def action(self) -> str:
        return "created" if self.created else "modified"

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


def _is_within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


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

    def __init__(self, root: Path | str, before_write: Callable[[Path], None] | None = None):
        root_path = Path(root)
        if not root_path.is_dir():
            raise WorkspaceError(f"workspace {str(root)!r} is not an existing directory")
        # Compare against the real root so a workspace reached through a symlink still works.
        self.root = Path(os.path.realpath(root_path))
        self.before_write = before_write

    # -- confinement -------------------------------------------------------------------------

    def _lexical_parts(self, rel: str) -> list[str]:
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

    def resolve(self, rel: str) -> Path:
        """The real absolute path for `rel`, or WorkspaceError if it is not safely inside."""
        try:
            return self._resolve(rel)
        except OSError as exc:  # a name too long, a symlink loop: the same kind of error as the rest
            raise WorkspaceError(f"path {str(rel)[:200]!r}: {exc.strerror or exc}") from None

    def _resolve(self, rel: str) -> Path:
        parts = self._lexical_parts(rel)
        root = str(self.root)
        current = root
        for i, part in enumerate(parts):
            current = os.path.join(current, part)
            try:
                st = os.lstat(current)
            except (FileNotFoundError, NotADirectoryError):
                # The rest does not exist yet (a file about to be created): nothing to follow.
                current = os.path.join(current, *parts[i + 1 :])
                break
            if stat.S_ISLNK(st.st_mode):
                target = os.path.realpath(current)
                shown = "/".join(parts[: i + 1])
                if not _is_within(target, root):
                    raise WorkspaceError(
                        f"path {rel!r} goes through symlink {shown!r} which points outside "
                        f"the workspace (to {target})"
                    )
                current = target
        resolved = os.path.realpath(current)
        if not _is_within(resolved, root):  # belt and braces: realpath must agree
            raise WorkspaceError(f"path {rel!r} resolves outside the workspace ({resolved})")
        try:
            mode = os.stat(resolved).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return Path(resolved)
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            raise WorkspaceError(f"path {rel!r} is not a regular file or directory (device, fifo or socket)")
        return Path(resolved)

    def relative(self, path: Path) -> str:
        """Workspace-relative posix form of an absolute path inside the workspace."""
        return Path(path).relative_to(self.root).as_posix() or "."

    def _resolve_for_change(self, rel: str, verb: str) -> Path:
        path = self.resolve(rel)
        rel_parts = path.relative_to(self.root).parts
        for part in rel_parts:
            if part.lower() in PROTECTED_DIRS:
                raise WorkspaceError(f"refusing to {verb} {rel!r}: {part}/ is protected")
        return path

    # -- reading -----------------------------------------------------------------------------

    def list_files(self, subdir: str = ".", max_entries: int = 2000) -> list[str]:
        """Regular files under `subdir` as sorted relative posix paths (at most `max_entries`).

        Skips VCS, tool, venv and cache directories and never follows symlinked directories,
        so a link loop or a link to / cannot blow up the listing.
        """
        start = self.resolve(subdir)
        if not start.is_dir():
            raise WorkspaceError(f"cannot list {subdir!r}: not a directory")
        root = str(self.root)
        found: list[str] = []
        stack = [str(start)]
        while stack and len(found) < max_entries:
            directory = stack.pop()
            try:
                entries = sorted(os.scandir(directory), key=lambda e: e.name)
            except OSError:
                continue  # unreadable directory: list what we can
            subdirs: list[str] = []
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in SKIP_DIRS:
                        subdirs.append(entry.path)
                    continue
                if entry.is_symlink():
                    target = os.path.realpath(entry.path)
                    if not (_is_within(target, root) and os.path.isfile(target)):
                        continue
                elif not entry.is_file(follow_symlinks=False):
                    continue  # fifo, socket, device
                found.append(Path(entry.path).relative_to(self.root).as_posix())
                if len(found) >= max_entries:
                    break
            stack.extend(reversed(subdirs))  # depth-first, alphabetical
        return sorted(found)

    def read_text(self, rel: str, max_bytes: int = 200_000) -> str:
        """UTF-8 text of a regular file; WorkspaceError for directories, binary or huge files."""
        path = self.resolve(rel)
        # O_NONBLOCK: a fifo swapped in after resolve() must not hang us; fstat decides below.
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            raise WorkspaceError(f"cannot read {rel!r}: file does not exist") from None
        except IsADirectoryError:
            raise WorkspaceError(f"cannot read {rel!r}: it is a directory") from None
        except OSError as exc:
            raise WorkspaceError(f"cannot read {rel!r}: {exc.strerror}") from None
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            os.close(fd)
            what = "it is a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
            raise WorkspaceError(f"cannot read {rel!r}: {what}")
        with os.fdopen(fd, "rb") as fh:
            if st.st_size > max_bytes:
                raise WorkspaceError(
                    f"cannot read {rel!r}: {st.st_size} bytes is over the {max_bytes} byte limit"
                )
            data = fh.read(max_bytes + 1)
        if len(data) > max_bytes:  # grew after fstat
            raise WorkspaceError(f"cannot read {rel!r}: over the {max_bytes} byte limit")
        if b"\x00" in data:
            raise WorkspaceError(f"cannot read {rel!r}: binary file (contains NUL bytes)")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise WorkspaceError(f"cannot read {rel!r}: not valid UTF-8 text (byte {exc.start})") from None

    # -- changing ----------------------------------------------------------------------------

    def _make_parents(self, path: Path, rel: str) -> None:
        missing: list[Path] = []
        parent = path.parent
        while not parent.exists():
            missing.append(parent)
            parent = parent.parent
        if not parent.is_dir():
            raise WorkspaceError(f"cannot write {rel!r}: {self.relative(parent)!r} is a file")
        for directory in reversed(missing):
            os.mkdir(directory)

    def write_text(self, rel: str, content: str) -> WriteResult:
        """Atomically write UTF-8 text, creating parent directories inside the workspace."""
        if not isinstance(content, str):
            raise WorkspaceError(f"cannot write {rel!r}: content must be text")
        path = self._resolve_for_change(rel, "write")
        shown = self.relative(path)
        if path == self.root or path.is_dir():
            raise WorkspaceError(f"cannot write {rel!r}: it is a directory")
        old_content: str | None = None
        old_mode: int | None = None
        old_stat = path.stat() if path.exists() else None
        existed, old_size = old_stat is not None, old_stat.st_size if old_stat else 0
        if old_stat is not None:
            if old_size <= DIFF_LIMIT_BYTES:
                old_content = path.read_bytes().decode("utf-8", errors="replace")
            old_mode = stat.S_IMODE(old_stat.st_mode)
        if self.before_write is not None:
            self.before_write(path)
        self._make_parents(path, rel)
        data = content.encode("utf-8")
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            # mkstemp makes 0600 files; keep the old mode, or what a plain open() would give.
            os.chmod(tmp, old_mode if old_mode is not None else 0o666 & ~_current_umask())
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        fsync_dir(path.parent)
        return WriteResult(shown, path, len(data), not existed, old_content, content, old_size)

    def delete(self, rel: str) -> None:
        """Delete a file (or an empty directory)."""
        path = self._resolve_for_change(rel, "delete")
        if path == self.root:
            raise WorkspaceError("refusing to delete the workspace root")
        parts = self._lexical_parts(rel)
        link = self.resolve("/".join(parts[:-1]) or ".") / parts[-1]
        if link.is_symlink():
            # resolve() followed the (inside) link; deleting must remove the link, not its target.
            path = link
        if not os.path.lexists(path):
            raise WorkspaceError(f"cannot delete {rel!r}: it does not exist")
        if path.is_dir() and not path.is_symlink():
            if any(path.iterdir()):
                raise WorkspaceError(f"cannot delete {rel!r}: directory is not empty")
            if self.before_write is not None:
                self.before_write(path)
            path.rmdir()
        else:
            if self.before_write is not None:
                self.before_write(path)
            path.unlink()
        fsync_dir(path.parent)


def fsync_dir(directory: Path) -> None:
    # Make the rename itself durable; not possible (nor needed) on Windows.
    if os.name != "posix":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
