"""Download catalog models from the Hugging Face hub, on request only, with progress and resume.

The app runs with HF_HUB_OFFLINE=1; a download the user asked for lifts that switch for its own
duration and nothing else. Files land in the standard Hugging Face cache, so other tools share them.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlparse

from models.catalog import CatalogEntry


class DownloadError(RuntimeError):
    """The hub could not be reached or refused the file; the message says what to do."""


def cached_model_path(entry: CatalogEntry) -> Path | None:
    """The file if it is already complete in the local cache; never touches the network."""
    if entry.repo is None:
        return None
    from huggingface_hub import try_to_load_from_cache

    found = try_to_load_from_cache(repo_id=entry.repo, filename=entry.filename)
    return Path(found) if isinstance(found, str) and Path(found).is_file() else None


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
            "the download again, or download the .gguf elsewhere and pass its path with --model."
        ) from exc


ProgressCallback = Callable[[int, int], None]  # (bytes done, bytes total; 0 when unknown)


def _progress_bar_class(on_progress: ProgressCallback) -> type:
    """A tqdm that also reports to a callback, so a GUI can draw the same progress as the terminal."""
    from tqdm.auto import tqdm

    class ReportingTqdm(tqdm):  # type: ignore[misc, valid-type]
        def update(self, n: float | None = 1) -> bool | None:
            shown = super().update(n)
            on_progress(int(self.n), int(self.total or 0))
            return shown

    return ReportingTqdm


def download_model(
    entry: CatalogEntry, *, endpoint: str | None = None, on_progress: ProgressCallback | None = None
) -> Path:
    """Fetch the entry's .gguf with a progress bar; an interrupted download resumes next time."""
    if entry.repo is None:
        raise DownloadError(f"'{entry.id}' ships with the app; there is nothing to download.")
    cached = cached_model_path(entry)
    if cached is not None:
        return cached
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
            " Check the network, or download the .gguf elsewhere and pass its path with --model."
        ) from exc
    except (HfHubHTTPError, OSError) as exc:
        raise DownloadError(
            f"Download of {entry.repo}/{entry.filename} failed: {exc}. Run the same command again "
            "to resume, or pass a local .gguf with --model."
        ) from exc
    return Path(path)
