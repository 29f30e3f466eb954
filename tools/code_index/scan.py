"""Walk a workspace cheaply (names and ``stat`` only) and read files for indexing.

The walk never follows symbolic links (as git, which stores a link rather than its target), so a
symlink loop cannot trap it; unreadable folders are skipped and reported. Reading a file is a
separate step (:func:`read_text_file`) that tells text from binary and undecodable content.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

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
    matcher = IgnoreMatcher()
    info_exclude = os.path.join(root_str, ".git", "info", "exclude")
    if os.path.isfile(info_exclude):
        matcher.add_file(info_exclude, "")
    stack: list[tuple[str, str, IgnoreMatcher]] = [(root_str, "", matcher)]
    while stack:
        abs_dir, rel_dir, parent = stack.pop()
        try:
            entries = list(os.scandir(abs_dir))
        except OSError:
            result.skip(SKIP_UNREADABLE, rel_dir or ".")
            continue
        local = parent
        if any(e.name == ".gitignore" for e in entries):
            local = IgnoreMatcher(parent.rules)
            local.add_file(os.path.join(abs_dir, ".gitignore"), rel_dir)
        for entry in entries:
            name = entry.name
            rel = f"{rel_dir}/{name}" if rel_dir else name
            try:
                if entry.is_symlink():
                    result.skip(SKIP_SYMLINK, rel)
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if name == LOCAL_DIR or entry.path in excluded:
                        continue  # LocalCrew's own folder: not reported
                    if name in IGNORED_DIR_NAMES or local.ignored(rel, True) or is_venv_dir(entry.path):
                        result.skip(SKIP_IGNORED, rel + "/")
                    else:
                        stack.append((entry.path, rel, local))
                    continue
                if not entry.is_file(follow_symlinks=False):
                    continue  # sockets, fifos, devices
                if has_binary_suffix(name):
                    result.skip(SKIP_BINARY, rel)
                    continue
                if is_noise_file(name) or local.ignored(rel, False):
                    result.skip(SKIP_IGNORED, rel)
                    continue
                st = entry.stat(follow_symlinks=False)
            except OSError:
                result.skip(SKIP_UNREADABLE, rel)
                continue
            if st.st_size > max_bytes:
                result.skip(SKIP_TOO_LARGE, rel)
                continue
            result.files.append(ScannedFile(rel, st.st_size, st.st_mtime_ns))
    result.files.sort(key=lambda f: f.path)
    return result


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
    """Read and decode one file. Raises FileNotFoundError if it vanished, OSError if unreadable."""
    with open(abs_path, "rb") as fh:
        data = fh.read(max_bytes + 1)
    file_hash = hash_bytes(data)
    if len(data) > max_bytes:
        return FileContent(file_hash, None, SKIP_TOO_LARGE)
    text, reason, replaced = decode_text(data)
    return FileContent(file_hash, text, reason, replaced)
