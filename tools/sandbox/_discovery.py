"""Files a host tool runs or obeys by merely finding them: never applied back from a sandbox run.

A sandboxed program cannot run anything on the host, but what it leaves in the workspace is read
later by tools that execute code without being asked:

- git, at the user's next `git status` (a shell prompt or an editor runs one unasked): a `.git`
  folder or file, and any folder git takes for a repository by itself, which is how it finds bare
  repositories and worktrees: a `HEAD` next to `objects/` and `refs/`, or next to a `commondir`.
  Its `config` can name a program (core.fsmonitor, core.hooksPath, core.sshCommand...).
- Mercurial likewise: `.hg/hgrc` hooks run on any hg command, a prompt's `hg status` included.
- editors: `.vscode/` (tasks that run on folder open, settings naming the git or Python binary
  to start) and `.idea/` (run configurations and startup tasks), obeyed once a folder is trusted.
- the shell: `.envrc` (direnv and tools that read it on `cd`; direnv asks first, others do not).

A run never needs to write any of them; the user can always add them by hand.

A list of names always misses the next tool (.pdbrc, .pre-commit-config.yaml, .devcontainer/,
.mcp.json, .github/workflows/...), so `not_applied` states the rule the other way round: a
program's file is applied only where the tree shows it and the run's snapshot saves it, so Undo
can take it back. Never a dot-name at any depth, never inside a folder a tool owns (a venv found
by its pyvenv.cfg, node_modules, __pycache__, site-packages, the tree's skip list), never
bytecode (Python runs a .pyc whose header matches the .py beside it) or a .pth (site runs its
import lines at every start), never a file larger than the snapshot keeps. A dot-file the user
asks for goes through the coder's write, which is journaled and shown.
"""

from __future__ import annotations

import stat

from tools.workspace_files import PROTECTED_DIRS, SKIP_DIRS

# Any path component with one of these names (compared in lower case: case-insensitive file
# systems and git on them find `.GIT` too), besides PROTECTED_DIRS (.git, .localcrew).
HOST_TOOL_NAMES = frozenset({".hg", ".vscode", ".idea", ".envrc"})

GIT_LAYOUT = "a git repository layout (HEAD with objects/ and refs/, or commondir): git would run its config"


def never_applied(rel: str) -> str | None:
    """Why nothing at `rel` (a workspace path, `/`-separated) is ever applied back; None if it may be."""
    parts = [part.lower() for part in rel.split("/")]
    if any(part in PROTECTED_DIRS for part in parts):
        return "inside .git or .localcrew"
    if any(part in HOST_TOOL_NAMES for part in parts):
        return "run or obeyed by a host tool on discovery (.hg, .vscode, .idea, .envrc)"
    return None


# Folders a tool owns wherever they are: the tree and the snapshot skip them (SKIP_DIRS), or an
# interpreter reads them as code (site-packages). A folder holding VENV_MARKER is a venv by any name.
TOOL_DIRS = frozenset({*(name.lower() for name in SKIP_DIRS), "site-packages", "dist-packages"})
VENV_MARKER = "pyvenv.cfg"
# Run without being named: bytecode beside a matching .py, a .pth by site at every start.
CODE_SUFFIXES = {".pyc": "bytecode", ".pyo": "bytecode", ".pth": "a .pth (site runs it at every start)"}
NOT_APPLIED = "made by the program, not applied"


def tool_dir(name: str) -> bool:
    """Whether a folder of this name belongs to a tool at any depth (a venv is found by its marker)."""
    return name.lower() in TOOL_DIRS


def not_applied(
    rel: str, owned: str | None = None, size: int = 0, max_bytes: int = 0, is_dir: bool = False
) -> str | None:
    """Why a program's file (or folder, `is_dir`) at `rel` is not applied back although no host tool
    is known to run it: Undo could not take it back, or the tree would not show it. `owned`: the
    folder a tool owns that holds it, found by its marker; `max_bytes`: the largest file the
    snapshot saves. Callers say "made by the program, not applied: " before it."""
    parts = rel.split("/")
    hidden = next((part for part in parts if part.startswith(".")), None)
    if hidden is not None:
        return f"{hidden} is a dot-name, hidden from the tree (ask the crew to write it)"
    folder = next((part for part in (parts if is_dir else parts[:-1]) if tool_dir(part)), None) or owned
    if folder is not None:
        return f"inside {folder}/, a folder a tool owns (the snapshot does not save it)"
    if is_dir:
        return None
    name = parts[-1]
    suffix = name[name.rfind(".") :].lower() if "." in name else ""
    if suffix in CODE_SUFFIXES:
        return f"{CODE_SUFFIXES[suffix]}, run without being named"
    if max_bytes and size > max_bytes:
        return f"larger than the snapshot saves ({max_bytes >> 20} MB): Undo could not take it back"
    return None


def looks_like_git_dir(listing: list[tuple[str, int]]) -> bool:
    """Whether git would take a folder with these entries (name, st_mode) for a repository.

    git's own test (setup.c, is_git_directory): a valid HEAD, then objects/ and refs/ in the folder
    or in the one its `commondir` names. Any HEAD that is not a folder counts here: cheaper than
    parsing it and never wrong in the direction that matters.
    """
    kinds = {name.lower(): stat.S_IFMT(mode) for name, mode in listing}
    head = kinds.get("head")
    if head is None or head == stat.S_IFDIR:
        return False
    if "commondir" in kinds:
        return True
    folder_like = (stat.S_IFDIR, stat.S_IFLNK)  # git follows a link to a folder
    return kinds.get("objects") in folder_like and kinds.get("refs") in folder_like
