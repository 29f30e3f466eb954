"""The Files tab's actions: open and save a file, the last run's diff. All file access goes
through WorkspaceFiles (directory fds, no link followed out, no fifo opened blocking, no
hard-linked file read), so the editor cannot leave the workspace either."""

from __future__ import annotations

import html
import os
from dataclasses import dataclass
from pathlib import Path

from gui.markdown_text import quoted
from tools.run_snapshot import RunSnapshots, SnapshotError
from tools.workspace_files import WorkspaceError, WorkspaceFiles

LANGUAGES = {
    ".py": "python", ".js": "javascript", ".ts": "typescript", ".json": "json", ".md": "markdown",
    ".html": "html", ".css": "css", ".yaml": "yaml", ".yml": "yaml", ".sh": "shell", ".sql": "sql",
    ".c": "c", ".h": "c", ".cpp": "cpp", ".hpp": "cpp", ".r": "r", ".toml": None, ".txt": None,
}  # fmt: skip


def language_for(rel: str) -> str | None:
    return LANGUAGES.get(Path(rel).suffix.lower())


def relative_in(workspace: Path, selected: str | list[str] | None) -> str | None:
    """FileExplorer hands back absolute paths (a list in multi mode): make one workspace-relative."""
    if isinstance(selected, list):
        selected = selected[0] if selected else None
    if not selected:
        return None
    if not os.path.isabs(selected):
        return selected
    # Lexically, never resolving the selection: a link in it must reach WorkspaceFiles as a link,
    # which follows it only inside the workspace (resolve() here would follow it anywhere).
    path = os.path.normpath(selected)
    for root in (os.path.abspath(workspace), os.path.realpath(workspace)):
        if path == root:
            return "."
        if path.startswith(root.rstrip(os.sep) + os.sep):
            return Path(path[len(root.rstrip(os.sep)) + 1 :]).as_posix()
    return selected  # WorkspaceFiles refuses it with a clear message


@dataclass(frozen=True)
class OpenedFile:
    """What the editor holds: which file, the version of it on disk then, and whether Save may write."""

    rel: str
    version: str | None  # size, mtime and inode when opened; None: no such file yet
    editable: bool
    reason: str = ""  # why it is read-only


def disk_version(workspace: Path, rel: str) -> str | None:
    try:
        st = WorkspaceFiles(workspace).lstat(rel)  # through dir fds: never an outside file's stamp
    except (WorkspaceError, ValueError, OSError):
        return None
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"


def open_file(workspace: Path, rel: str) -> tuple[str, str, OpenedFile]:
    """(content, message, what was opened). A file the editor cannot show opens read-only, with
    the reason, so that Save can never write its empty editor back over it."""
    version = disk_version(workspace, rel)
    try:
        text = WorkspaceFiles(workspace).read_text(rel)
    except (WorkspaceError, ValueError, OSError) as exc:
        if version is None:
            return "", f"Cannot open `{rel}`: {exc}", OpenedFile(rel, None, True)
        reason = f"{exc}"
        return "", f"`{rel}` opens read-only: {reason}.", OpenedFile(rel, version, False, reason)
    return text, f"Opened `{rel}`.", OpenedFile(rel, version, True)


def save_file(
    workspace: Path, rel: str | None, content: str, opened: OpenedFile | None = None
) -> tuple[str, OpenedFile | None]:
    """Write the editor's text, unless that would lose something: a file shown read-only, a file
    changed on disk since it was opened (by the crew, an undo, another program), or another existing
    file than the one opened (a name typed into the File box)."""
    if not rel:
        return "Open a file first (or type a new file's path) before saving.", opened
    now = disk_version(workspace, rel)
    if opened is not None and opened.rel == rel:
        if not opened.editable:
            return f"Not saved: `{rel}` is open read-only ({opened.reason}).", opened
        if now != opened.version:
            return (
                f"Not saved: `{rel}` changed on disk since you opened it (the crew, an undo or another"
                " program). Open it again to see the change; copy your edits first if you need them.",
                opened,
            )
    elif now is not None:
        return (
            f"Not saved: `{rel}` already exists and is not the file you opened. Open it to edit it, or"
            " type a new name; nothing was overwritten.",
            opened,
        )
    try:
        result = WorkspaceFiles(workspace).write_text(rel, content)
    except (WorkspaceError, ValueError, OSError) as exc:
        return f"Not saved: {exc}", opened
    saved = OpenedFile(result.rel, disk_version(workspace, result.rel), True)
    return f"Saved `{result.rel}` ({result.action}).", saved


def last_run_diff(workspace: Path) -> str:
    try:
        info, diff = RunSnapshots(workspace).last_run_diff()
    except (SnapshotError, OSError) as exc:
        return f"Cannot read the last run: {exc}"
    if info is None:
        return _no_run_on_disk(workspace)
    return f"Last run: {quoted(info.label)}\n\n" + (coloured_diff(diff) if diff else "(no file changes)")


def _no_run_on_disk(workspace: Path) -> str:
    """What to say where no run's change is on disk: none yet, the last one held, or all undone."""
    try:
        runs = RunSnapshots(workspace).runs()
    except (SnapshotError, OSError):
        runs = []
    if not runs:
        return "No crew run to show yet."
    if runs[0].held:
        return (
            f"The last run, {quoted(runs[0].label)}, is held for review: its change waits in the Review"
            " tab, not in your project. Choose it above to see it."
        )
    return "Every run so far was undone: choose one above to see its change, or Redo it."


_DIFF_COLOURS = (
    ("+++", "#57606a"), ("---", "#57606a"), ("@@", "#8250df"), ("+", "#1a7f37"), ("-", "#cf222e")
)  # fmt: skip


def coloured_diff(diff: str) -> str:
    """A unified diff as an HTML block, added lines green and removed lines red; every line is
    escaped, so file contents cannot become markup."""
    lines = []
    for line in diff.splitlines():
        colour = next((c for prefix, c in _DIFF_COLOURS if line.startswith(prefix)), "")
        text = html.escape(line)
        lines.append(f'<span style="color:{colour}">{text}</span>' if colour else text)
    return '<pre class="lc-diff">' + "\n".join(lines) + "</pre>"
