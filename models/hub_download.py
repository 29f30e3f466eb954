"""Fetch one catalog file from the Hugging Face hub, resumable across runs, kept only if its hash is right.

huggingface_hub's own `hf_hub_download` (2.x) writes to a temporary file unique to each process and
deletes it on any failure: a cut connection is resumed within the call, but Ctrl-C or a crash 4 GB
into a 4.7 GB file starts again from nothing. So the hub client asks the hub where the file is and how
big (`get_hf_file_metadata`) and streams it (`http_get`, with its retries and Range resume) into
`<models dir>/<file>.incomplete`, which a later run continues. The file takes its real name only
when its size and SHA-256 are the catalog's; a mismatch deletes it and says so.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

from models.catalog import CatalogEntry
from models.model_cache import models_dir

ProgressCallback = Callable[[int, int], None]  # (bytes done, bytes total)


class HubError(RuntimeError):
    """The hub did not give the file; `reason` is the short cause, the message what to do."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as source:
        while chunk := source.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def incomplete_path(entry: CatalogEntry, folder: Path | None = None) -> Path:
    return (folder or models_dir()) / f"{entry.filename}.incomplete"


@contextlib.contextmanager
def hub_online() -> Iterator[None]:
    """The app runs with HF_HUB_OFFLINE=1; a download the user asked for lifts it for its own duration."""
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


def _progress_bar_class(on_progress: ProgressCallback) -> type:
    """A tqdm that also reports to a callback, so a GUI can draw the same progress as the terminal."""
    from tqdm.auto import tqdm

    class ReportingTqdm(tqdm):  # type: ignore[misc, valid-type]
        def update(self, n: float | None = 1) -> bool | None:
            shown = super().update(n)
            on_progress(int(self.n), int(self.total or 0))
            return shown

    return ReportingTqdm


def _hub_size(entry: CatalogEntry, url: str, endpoint: str | None) -> tuple[str, int]:
    """Where to GET the file and its size, as the hub says; a pinned size that differs is refused
    before a byte is fetched (the hub would be serving another file under the catalog's name)."""
    from huggingface_hub import get_hf_file_metadata

    meta = get_hf_file_metadata(url, endpoint=endpoint)
    size = meta.size if meta.size is not None else entry.size_bytes
    if entry.sha256 and size != entry.size_bytes:
        raise HubError(
            f"The hub's {entry.filename} has {size:,} bytes, not the {entry.size_bytes:,} of the pinned "
            "file; nothing was downloaded. The repository may have changed: pass a .gguf you trust with "
            "--model.",
            f"the hub's file has {size:,} bytes, not {entry.size_bytes:,}",
        )
    return meta.location, size


def _check_space(folder: Path, needed: int) -> None:
    free = shutil.disk_usage(folder).free
    if free < needed:
        raise HubError(
            f"Not enough disk space in {folder}: {needed / 1e9:.2f} GB more is needed, {free / 1e9:.2f} GB "
            "is free. Free some space (or set LOCALCREW_MODELS_DIR to another disk) and run the download "
            "again.",
            f"not enough disk space ({free / 1e9:.2f} GB free, {needed / 1e9:.2f} GB needed)",
        )


def _stream(location: str, partial: Path, size: int, name: str, on_progress: ProgressCallback | None) -> None:
    from huggingface_hub.file_download import http_get

    with open(partial, "ab") as out:
        done = out.tell()
        if done > size:  # left by another version of the file: start again
            out.seek(0)
            out.truncate()
            done = 0
        _check_space(partial.parent, size - done)
        http_get(
            location,
            out,
            resume_size=done,
            expected_size=size,
            displayed_filename=name,
            tqdm_class=_progress_bar_class(on_progress) if on_progress else None,
        )
        out.flush()
        os.fsync(out.fileno())  # the rename must not publish bytes still in the page cache


def _verified(entry: CatalogEntry, partial: Path) -> Path:
    final = partial.with_name(entry.filename)
    if entry.sha256 is not None:
        found = file_sha256(partial)
        if found != entry.sha256:
            partial.unlink(missing_ok=True)
            raise HubError(
                f"The file downloaded from {entry.repo} has SHA-256 {found}, not the expected "
                f"{entry.sha256}; deleted it. Run the download again, or pass a .gguf you trust with "
                "--model.",
                f"its file had SHA-256 {found}, not {entry.sha256}, and was deleted",
            )
    os.replace(partial, final)
    return final


def fetch_from_hub(
    entry: CatalogEntry, endpoint: str | None = None, on_progress: ProgressCallback | None = None
) -> Path:
    """Download (or continue) the entry's file into the models folder, verify it, return its path."""
    import httpx2  # huggingface_hub's HTTP client; its transport errors are not OSErrors
    from huggingface_hub import hf_hub_url
    from huggingface_hub.errors import HfHubHTTPError, RemoteEntryNotFoundError, RepositoryNotFoundError

    assert entry.repo is not None
    url = hf_hub_url(entry.repo, entry.filename, endpoint=endpoint)
    partial = incomplete_path(entry)
    try:
        partial.parent.mkdir(parents=True, exist_ok=True)
        with hub_online():
            location, size = _hub_size(entry, url, endpoint)
            _stream(location, partial, size, entry.filename, on_progress)
    except (RemoteEntryNotFoundError, RepositoryNotFoundError) as exc:
        raise HubError(
            f"The hub has no {entry.filename} in {entry.repo} ({exc.__class__.__name__}, HTTP 404). The "
            "catalog may be out of date: download the .gguf elsewhere and pass its path with --model.",
            f"the hub has no {entry.filename} in {entry.repo} (404)",
        ) from exc
    except (HfHubHTTPError, httpx2.HTTPError, OSError, ValueError) as exc:
        kept = partial.stat().st_size if partial.exists() else 0
        raise HubError(
            f"Download of {entry.repo}/{entry.filename} failed: {_one_line(exc)}. {kept:,} bytes are kept in "
            f"{partial}: run the same command again to resume, or pass a local .gguf with --model.",
            f"download failed: {_one_line(exc)}",
        ) from exc
    return _verified(entry, partial)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or exc.__class__.__name__
