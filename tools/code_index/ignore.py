"""What the index leaves out: fixed folders (VCS, virtualenvs, caches), binary suffixes, .gitignore.

``.gitignore`` semantics implemented: comments, blank lines, ``!`` negation (last match wins),
trailing ``/`` for folders only, patterns with an inner or leading ``/`` anchored to the folder of
their ``.gitignore``, others matched against the name at any depth, ``*``, ``?``, ``[...]`` and
``**``. Nested ``.gitignore`` files and ``.git/info/exclude`` are read. As in git, a file inside an
ignored folder cannot be re-included.
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass

from tools.confined_fs import read_bytes_no_links

from .globs import translate_glob

#: Folder names never descended into.
IGNORED_DIR_NAMES = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".localcrew",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".ipynb_checkpoints",
        ".eggs",
        "site-packages",
        ".idea",
    }
)

#: Marker files that make a folder a virtual environment whatever its name.
VENV_MARKERS = ("pyvenv.cfg", "conda-meta")

#: Suffixes of files that are binary (skipped without reading them).
BINARY_SUFFIXES = frozenset(
    """
    .png .jpg .jpeg .gif .bmp .ico .icns .webp .tif .tiff .psd .svgz
    .pdf .doc .docx .xls .xlsx .ppt .pptx .odt .ods
    .zip .gz .tgz .bz2 .xz .zst .7z .rar .tar .jar .war .whl .egg
    .so .dll .dylib .exe .bin .o .a .lib .obj .class .pyc .pyo .pyd .wasm
    .mp3 .mp4 .wav .flac .ogg .avi .mov .mkv .webm
    .ttf .otf .woff .woff2 .eot
    .gguf .safetensors .pt .pth .ckpt .onnx .npy .npz .pkl .pickle .h5 .hdf5 .parquet .arrow
    .lance .db .sqlite .sqlite3 .dat .idx .pack
    """.split()  # noqa: SIM905 - a word list reads better than 80 quoted items
)

#: Generated text files that only add noise to search results.
NOISE_FILE_NAMES = frozenset(
    {"package-lock.json", "yarn.lock", "pnpm-lock.yaml", "poetry.lock", "uv.lock", "Cargo.lock"}
)
NOISE_SUFFIXES = (".min.js", ".min.css", ".map", ".lock")


def is_venv_dir(abs_path: str) -> bool:
    return any(os.path.exists(os.path.join(abs_path, m)) for m in VENV_MARKERS)


def is_noise_file(name: str) -> bool:
    return name in NOISE_FILE_NAMES or name.endswith(NOISE_SUFFIXES)


def has_binary_suffix(name: str) -> bool:
    dot = name.rfind(".")
    return dot > 0 and name[dot:].lower() in BINARY_SUFFIXES


@dataclass(frozen=True, slots=True)
class IgnoreRule:
    base: str  # folder of the .gitignore, relative to the workspace ("" for the root)
    regex: re.Pattern[str]
    negate: bool
    dir_only: bool

    def matches(self, rel_path: str, is_dir: bool) -> bool:
        if self.dir_only and not is_dir:
            return False
        if self.base:
            prefix = self.base + "/"
            if not rel_path.startswith(prefix):
                return False
            rel_path = rel_path[len(prefix) :]
        return self.regex.match(rel_path) is not None


def parse_gitignore(text: str, base: str = "") -> list[IgnoreRule]:
    """Parse the lines of a ``.gitignore`` whose folder is ``base`` (workspace-relative)."""
    rules: list[IgnoreRule] = []
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        # Trailing spaces are ignored unless escaped with a backslash.
        while line.endswith(" ") and not line.endswith("\\ "):
            line = line[:-1]
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        if negate or line.startswith("\\!") or line.startswith("\\#"):
            line = line[1:]
        dir_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        line = line.lstrip("/")
        body = translate_glob(line)
        if not anchored:
            body = "(?:.*/)?" + body
        rules.append(IgnoreRule(base, re.compile(body + r"\Z", re.DOTALL), negate=negate, dir_only=dir_only))
    return rules


class IgnoreMatcher:
    """Accumulates ``.gitignore`` rules while walking down the tree."""

    def __init__(self, rules: list[IgnoreRule] | None = None) -> None:
        self.rules: list[IgnoreRule] = list(rules or [])

    def add_text(self, text: str, base: str) -> None:
        self.rules.extend(parse_gitignore(text, base))

    def add_file(self, abs_path: str, base: str) -> None:
        """Rules from a file by path; a link, fifo or hard-linked file gives none (the scan reads
        through its own directory fds and calls add_text)."""
        with contextlib.suppress(OSError, ValueError):
            data, _ = read_bytes_no_links(abs_path, 1_000_000)
            self.add_text(data.decode("utf-8", errors="replace"), base)

    def ignored(self, rel_path: str, is_dir: bool) -> bool:
        result = False
        for rule in self.rules:
            if rule.negate == result and rule.matches(rel_path, is_dir):
                result = not rule.negate
        return result
