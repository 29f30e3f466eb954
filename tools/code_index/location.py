"""Where an index lives: ``<workspace>/.localcrew/index``, or the user's cache if that is read-only."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

LOCAL_DIR = ".localcrew"
ENV_CACHE = "LOCALCREW_CACHE_DIR"


def user_cache_dir() -> Path:
    """``$LOCALCREW_CACHE_DIR``, else the platform cache folder plus ``localcrew``."""
    env = os.environ.get(ENV_CACHE)
    if env:
        return Path(env)
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = str(Path.home() / "Library" / "Caches")
    else:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "localcrew"


def _probe_writable(folder: Path) -> None:
    """Create ``folder`` and write a file in it; raises OSError when that is not possible."""
    folder.mkdir(parents=True, exist_ok=True)
    probe = folder / f".write-test-{os.getpid()}"
    with open(probe, "wb") as fh:
        fh.write(b"ok")
    probe.unlink()


def resolve_index_dir(workspace: Path, index_dir: Path | None) -> tuple[Path, str | None]:
    """(folder for the index, note) where the note says why the default was not used.

    An explicit ``index_dir`` must be writable (OSError otherwise). The default is
    ``<workspace>/.localcrew/index``; when the workspace cannot be written (read-only mount,
    permissions, a file named ``.localcrew``) the index goes to the user's cache folder, in a
    sub-folder named after the workspace path.
    """
    if index_dir is not None:
        folder = Path(index_dir).expanduser().resolve()
        _probe_writable(folder)
        return folder, None
    local = workspace / LOCAL_DIR
    folder = local / "index"
    try:
        _probe_writable(folder)
        ignore = local / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# LocalCrew's own files (code index, caches)\n*\n", encoding="utf-8")
        return folder, None
    except OSError as exc:
        digest = hashlib.blake2b(str(workspace).encode(), digest_size=6).hexdigest()
        fallback = user_cache_dir() / "index" / f"{workspace.name or 'root'}-{digest}"
        _probe_writable(fallback)
        reason = exc.strerror or type(exc).__name__
        note = (
            f"workspace {workspace} is not writable ({reason}); "
            f"the code index is stored in {fallback} instead"
        )
        return fallback, note
