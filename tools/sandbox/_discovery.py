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
"""

from __future__ import annotations

import stat

from tools.workspace_files import PROTECTED_DIRS

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
