"""The Files tab's actions: open and save a file, the last run's diff, undo. All file access goes
through WorkspaceFiles, so the editor cannot leave the workspace either."""

from __future__ import annotations

from pathlib import Path

from gui.run_view import fence
from tools.run_snapshot import NothingToUndoError, RunSnapshots, SnapshotError
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
    path = Path(selected)
    try:
        return path.resolve().relative_to(workspace.resolve()).as_posix() if path.is_absolute() else selected
    except ValueError:
        return selected  # WorkspaceFiles refuses it with a clear message


def open_file(workspace: Path, rel: str) -> tuple[str, str]:
    """(content, message); an unreadable or outside path gives an empty editor and the reason."""
    try:
        return WorkspaceFiles(workspace).read_text(rel), f"Opened `{rel}`."
    except (WorkspaceError, ValueError, OSError) as exc:
        return "", f"Cannot open `{rel}`: {exc}"


def save_file(workspace: Path, rel: str | None, content: str) -> str:
    if not rel:
        return "Open a file first (or type a new file's path) before saving."
    try:
        result = WorkspaceFiles(workspace).write_text(rel, content)
    except (WorkspaceError, ValueError, OSError) as exc:
        return f"Not saved: {exc}"
    return f"Saved `{result.rel}` ({result.action})."


def last_run_diff(workspace: Path) -> str:
    try:
        info, diff = RunSnapshots(workspace).last_run_diff()
    except (SnapshotError, OSError) as exc:
        return f"Cannot read the last run: {exc}"
    if info is None:
        return "No crew run to show yet."
    return f"Last run: {info.label!r}\n\n" + fence(diff or "(no file changes)", "diff")


def undo_last_run(workspace: Path) -> str:
    try:
        result = RunSnapshots(workspace).undo()
    except NothingToUndoError as exc:
        return str(exc).capitalize() + "."
    except (SnapshotError, OSError) as exc:
        return f"Undo failed: {exc}"
    text = result.summary().capitalize() + "."
    if result.not_restored:
        text += " Not restored: " + "; ".join(result.not_restored)
    return text
