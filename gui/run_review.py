"""The Last run tab's snapshot actions: Undo the last run, Redo the last Undo, Reject one file of
the run. Messages in plain words; the snapshot store does the work (tools/run_snapshot.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from tools.run_snapshot import NothingToUndoError, RunSnapshots, SnapshotError

T = TypeVar("T")


def _on_snapshots(workspace: Path, action: Callable[[RunSnapshots], T], failed: str) -> T | str:
    """The action's result, or the message saying why it did nothing (`failed`, a format taking
    the error, for a snapshot store that failed)."""
    try:
        return action(RunSnapshots(workspace))
    except NothingToUndoError as exc:
        return str(exc).capitalize() + "."
    except (SnapshotError, OSError) as exc:
        return failed.format(exc)


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
    return _on_snapshots(workspace, lambda snaps: f"Rejected {snaps.reject_file(rel)}.", "Not rejected: {}.")


def undo_last_run(workspace: Path) -> str:
    result = _on_snapshots(workspace, RunSnapshots.undo, "Undo failed: {}")
    if isinstance(result, str):
        return result
    text = result.summary().capitalize() + "."
    if result.not_restored:
        text += " Not restored: " + "; ".join(result.not_restored)
    return text


def redo_last_undo(workspace: Path) -> str:
    result = _on_snapshots(workspace, RunSnapshots.redo, "Redo failed: {}")
    if isinstance(result, str):
        return result
    changed = ", ".join(result.restored + result.deleted) or "nothing to change"
    text = f"Redid {result.label!r}: {changed}."
    if result.not_restored:
        text += " Kept as they are now: " + "; ".join(result.not_restored)
    return text
