"""Walk a workspace cheaply (names and ``stat`` only) and read files for indexing.

The walk never follows symbolic links (as git, which stores a link rather than its target), so a
symlink loop cannot trap it; unreadable folders are skipped and reported. It walks with directory
fds (tools.confined_fs), so a folder swapped for a link mid-walk is not entered, and a .gitignore
that is a fifo or a link is not read. Reading a file is a separate step (:func:`read_text_file`)
that tells text from binary and undecodable content, and never follows a link or reads a
hard-linked file either.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from tools.confined_fs import ConfinedRoot, Dir, WorkspaceError, read_bytes_no_links

from .ignore import (
    IGNORED_DIR_NAMES,
    IgnoreMatcher,
    has_binary_suffix,
    is_noise_file,
    is_venv_dir,
)
from .location import LOCAL_DIR

MAX_FILE_BYTES = 1_000_000

# Reasons a path is left out (keys of ``ScanResult.skipped`` and of the index report).
SKIP_IGNORED = "ignored"
SKIP_SYMLINK = "symlink"
SKIP_TOO_LARGE = "too_large"
SKIP_BINARY = "binary"
SKIP_UNDECODABLE = "undecodable"
SKIP_UNREADABLE = "unreadable"
SKIP_VANISHED = "vanished"
SKIP_HARDLINK = "hard_link"  # another name of the file may be outside the workspace
GITIGNORE_MAX_BYTES = 1_000_000


@dataclass(frozen=True, slots=True)
class ScannedFile:
    path: str  # POSIX, relative to the workspace
    size: int
    mtime_ns: int


@dataclass(slots=True)
class ScanResult:
    files: list[ScannedFile] = field(default_factory=list)
    skipped: dict[str, list[str]] = field(default_factory=dict)

    def skip(self, reason: str, path: str) -> None:
        self.skipped.setdefault(reason, []).append(path)


def scan_workspace(
    root: Path,
    *,
    max_bytes: int = MAX_FILE_BYTES,
    exclude: Iterable[Path] = (),
) -> ScanResult:
    """List the indexable files under ``root`` (sorted by path) and what was left out, and why.

    ``exclude`` holds absolute folders never to enter (e.g. an index folder inside the tree).
    Ignored folders are reported once, by their own path, not file by file.
    """
    root_str = os.path.abspath(root)
    excluded = {os.path.abspath(p) for p in exclude}
    result = ScanResult()
    fs = ConfinedRoot(root_str)
    matcher = IgnoreMatcher()
    with contextlib.suppress(OSError, WorkspaceError), fs.open_dir([".git", "info"]) as info:
        matcher.add_text(_read_small(info, "exclude"), "")
    stack: list[tuple[list[str], IgnoreMatcher]] = [([], matcher)]
    while stack:
        parts, parent = stack.pop()
        rel_dir = "/".join(parts)
        try:
            folder = fs.open_dir(parts)  # no link on the way: a folder swapped for one is refused
        except (OSError, WorkspaceError):
            result.skip(SKIP_UNREADABLE, rel_dir or ".")
            continue
        with folder:
            _scan_folder(folder, parts, parent, root_str, excluded, max_bytes, result, stack)
    result.files.sort(key=lambda f: f.path)
    return result


def _read_small(folder: Dir, name: str) -> str:
    data, _ = folder.read_regular(name, GITIGNORE_MAX_BYTES)
    return data.decode("utf-8", errors="replace")


def _scan_folder(
    folder: Dir,
    parts: list[str],
    parent: IgnoreMatcher,
    root_str: str,
    excluded: set[str],
    max_bytes: int,
    result: ScanResult,
    stack: list[tuple[list[str], IgnoreMatcher]],
) -> None:
    rel_dir = "/".join(parts)
    try:
        entries = folder.entries()
    except OSError:
        result.skip(SKIP_UNREADABLE, rel_dir or ".")
        return
    local = parent
    if any(e.name == ".gitignore" and e.kind == "file" for e in entries):
        local = IgnoreMatcher(parent.rules)
        with contextlib.suppress(OSError, WorkspaceError):  # a fifo or a hard link: no rules from it
            local.add_text(_read_small(folder, ".gitignore"), rel_dir)
    for entry in entries:
        name = entry.name
        rel = f"{rel_dir}/{name}" if rel_dir else name
        try:
            if entry.kind == "link":
                result.skip(SKIP_SYMLINK, rel)
                continue
            if entry.kind == "dir":
                abs_path = os.path.join(root_str, *parts, name)
                if name == LOCAL_DIR or abs_path in excluded:
                    continue  # LocalCrew's own folder: not reported
                if name in IGNORED_DIR_NAMES or local.ignored(rel, True) or is_venv_dir(abs_path):
                    result.skip(SKIP_IGNORED, rel + "/")
                else:
                    stack.append(([*parts, name], local))
                continue
            if entry.kind != "file":
                continue  # sockets, fifos, devices
            if has_binary_suffix(name):
                result.skip(SKIP_BINARY, rel)
                continue
            if is_noise_file(name) or local.ignored(rel, False):
                result.skip(SKIP_IGNORED, rel)
                continue
            st = folder.lstat(name)
        except OSError:
            result.skip(SKIP_UNREADABLE, rel)
            continue
        if st.st_size > max_bytes:
            result.skip(SKIP_TOO_LARGE, rel)
            continue
        if st.st_nlink > 1:
            result.skip(SKIP_HARDLINK, rel)
            continue
        result.files.append(ScannedFile(rel, st.st_size, st.st_mtime_ns))


def hash_bytes(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@dataclass(frozen=True, slots=True)
class FileContent:
    """Outcome of reading one file: ``text`` is None when ``skip_reason`` says why."""

    file_hash: str
    text: str | None
    skip_reason: str | None = None
    replaced_chars: int = 0


#: Share of U+FFFD replacement characters above which a non-UTF-8 file counts as undecodable.
MAX_REPLACEMENT_SHARE = 0.01


def decode_text(data: bytes) -> tuple[str | None, str | None, int]:
    """(text, skip_reason, replaced_chars) for raw bytes; NUL bytes mean binary."""
    if b"\x00" in data[:8192]:
        return None, SKIP_BINARY, 0
    try:
        return data.decode("utf-8-sig"), None, 0
    except UnicodeDecodeError:
        pass
    text = data.decode("utf-8", errors="replace")
    replaced = text.count("\ufffd")
    if replaced > max(1, len(text) * MAX_REPLACEMENT_SHARE):
        return None, SKIP_UNDECODABLE, replaced
    return text, None, replaced


def read_text_file(abs_path: Path, max_bytes: int = MAX_FILE_BYTES) -> FileContent:
    """Read and decode one file. Raises FileNotFoundError if it vanished, OSError if unreadable,
    or if it became a link, a fifo or a hard-linked file since the scan (no component of
    ``abs_path`` may be a link: the index passes its resolved workspace plus a scanned path)."""
    try:
        data, _ = read_bytes_no_links(abs_path, max_bytes + 1)
    except WorkspaceError as exc:
        raise OSError(errno.EPERM, str(exc)) from None
    file_hash = hash_bytes(data)
    if len(data) > max_bytes:
        return FileContent(file_hash, None, SKIP_TOO_LARGE)
    text, reason, replaced = decode_text(data)
    return FileContent(file_hash, text, reason, replaced)
