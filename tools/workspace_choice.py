"""Whether a folder may be a workspace: the crew writes, runs code and indexes everything in it.

`/`, a home folder itself or a system folder would put the user's whole machine in reach of the
crew (and start indexing hundreds of thousands of files); a read-only folder makes every run fail
at its first write. Both are refused before anything starts.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

# Below these nothing is a user's project; the second list is refused only as the folder itself.
_SYSTEM_TREES = (
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/lib",
    "/lib32",
    "/lib64",
    "/proc",
    "/sbin",
    "/sys",
    "/usr",
)
_SYSTEM_ROOTS = ("/run", "/var", "/opt", "/srv", "/snap", "/tmp", "/home", "/Users", "/root", "/System",
                 "/Library", "/Applications", "/private")  # fmt: skip


def _roots() -> set[Path]:
    roots = {Path(p) for p in _SYSTEM_TREES + _SYSTEM_ROOTS} | {Path(Path.home().anchor)}
    if sys.platform == "win32":
        windows = Path(os.environ.get("SYSTEMROOT", r"C:\Windows"))
        roots |= {windows, Path(os.environ.get("PROGRAMFILES", r"C:\Program Files"))}
        roots |= {Path(os.environ.get("PROGRAMFILES(X86)", r"C:\Program Files (x86)"))}
    return roots


def _inside_system(path: Path) -> bool:
    return sys.platform != "win32" and any(path.is_relative_to(root) for root in _SYSTEM_TREES)


def workspace_problem(folder: str | Path) -> str | None:
    """Why this folder cannot be the workspace, in one sentence; None when it can."""
    path = Path(folder).expanduser()
    if not path.is_absolute():
        path = Path.cwd() / path
    path = Path(os.path.realpath(path))
    if not path.is_dir():
        return f"{path} is not a folder."
    if path == path.parent or path in _roots() or _inside_system(path):
        return f"{path} is the root or a system folder: choose a project folder inside it instead."
    if path == Path(os.path.realpath(Path.home())):
        return f"{path} is your home folder itself: choose a project folder inside it instead."
    try:
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        return f"{path} is not writable ({exc.strerror or exc}): the crew could not save its work there."
    return None
