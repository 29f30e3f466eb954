"""Whole files and one writer at a time: the atomic write and the file lock LocalCrew uses.

`atomic_write` puts a temp file beside the target and renames it over it, so a reader (or a
crash) sees the old content or the new one, never half of either. Two policies, by need:
``durable=True`` (the default) fsyncs the file before the rename and the folder after it, so the
new content survives a power cut once the call returns: settings, chats, undo records.
``durable=False`` skips both fsyncs for caches that are rebuilt when lost (the snapshot stat
cache, the code index manifest), where an fsync per write would cost more than the loss.

`FileLock` is an exclusive advisory lock (flock) between processes. On Windows there is no
flock here: the lock always succeeds, and single-process use is what holds there.

Writes inside a confined workspace folder do not come here: `tools.workspace_files` renames
within an open directory fd so that no path is looked up again.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import IO

try:
    import fcntl
except ImportError:  # Windows: see the module docstring
    fcntl = None  # type: ignore[assignment]

__all__ = ["FileLock", "atomic_write", "fsync_dir"]


def fsync_dir(directory: Path) -> None:
    """Make a rename in `directory` durable; not possible (nor needed) on Windows."""
    if os.name != "posix":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, data: str | bytes, *, durable: bool = True) -> None:
    """Replace `path` with `data` (text as UTF-8) in one rename; see the module docstring."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    if durable:
        fsync_dir(path.parent)


class FileLock:
    """An exclusive lock on `path` held between `acquire` and `release` (or as a context)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fh: IO[bytes] | None = None

    def acquire(self, blocking: bool = True) -> bool:
        """Take the lock; with ``blocking=False`` return False at once if another holds it."""
        fh = open(self.path, "a+b")  # noqa: SIM115 - held until release()
        if fcntl is not None:
            flags = fcntl.LOCK_EX if blocking else fcntl.LOCK_EX | fcntl.LOCK_NB
            try:
                fcntl.flock(fh.fileno(), flags)
            except BlockingIOError:
                fh.close()
                return False
        self._fh = fh
        return True

    def release(self) -> None:
        fh, self._fh = self._fh, None
        if fh is None:
            return
        if fcntl is not None:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
        fh.close()

    def __enter__(self) -> FileLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
