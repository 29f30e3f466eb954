"""The Last run tab's review actions beside Undo: Reject one file of the run, Redo the last Undo.
Messages in plain words; the snapshot store does the work (tools/run_snapshot.py)."""

from __future__ import annotations

from pathlib import Path

from tools.run_snapshot import NothingToUndoError, RunSnapshots, SnapshotError


def run_files(workspace: Path) -> list[str]:
    """The files the last (not undone) run wrote, for the Reject choice."""
    try:
        info = RunSnapshots(workspace).last_run()
    except (SnapshotError, OSError):
        return []
    return list(info.files_written) if info else []


def reject_file(workspace: Path, rel: str | None) -> str:
    if not rel:
        return "Choose a file of the last run to reject."
    try:
        return "Rejected " + RunSnapshots(workspace).reject_file(rel) + "."
    except NothingToUndoError as exc:
        return str(exc).capitalize() + "."
    except (SnapshotError, OSError) as exc:
        return f"Not rejected: {exc}."


def redo_last_undo(workspace: Path) -> str:
    try:
        result = RunSnapshots(workspace).redo()
    except NothingToUndoError as exc:
        return str(exc).capitalize() + "."
    except (SnapshotError, OSError) as exc:
        return f"Redo failed: {exc}"
    changed = ", ".join(result.restored + result.deleted) or "nothing to change"
    text = f"Redid {result.label!r}: {changed}."
    if result.not_restored:
        text += " Kept as they are now: " + "; ".join(result.not_restored)
    return text
