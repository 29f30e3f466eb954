"""The Last run tab's snapshot actions: Undo a chosen run (asking first when it would delete files),
Redo an undone run, Reject one file of the last run. Messages in plain words; the snapshot store does
the work (tools/run_snapshot.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from gui.markdown_text import literal, quoted
from gui.workspace_actions import coloured_diff, last_run_diff
from tools.run_snapshot import (
    NothingToUndoError,
    RejectNeedsConfirmationError,
    RunInfo,
    RunSnapshots,
    SnapshotError,
    UndoConflictError,
    UndoNeedsConfirmationError,
    UndoPlan,
    UndoResult,
)

T = TypeVar("T")
LABEL_CHARS = 60  # a run's request in the chooser: enough to recognise it


@dataclass(frozen=True)
class PendingUndo:
    """An undo (or a Reject) waiting for the user's yes: the run, and the deletions they are asked
    to agree to. `reject`: the file of a Reject that would delete it; empty for an undo."""

    run_id: str
    delete: list[str]
    reject: str = ""


def _on_snapshots(workspace: Path, action: Callable[[RunSnapshots], T], failed: str) -> T | str:
    """The action's result, or the message saying why it did nothing (`failed`, a format taking
    the error, for a snapshot store that failed)."""
    try:
        return action(RunSnapshots(workspace))
    except NothingToUndoError as exc:
        return str(exc).capitalize() + "."
    except (SnapshotError, OSError) as exc:
        return failed.format(exc)


def _named(paths: list[str], limit: int = 10) -> str:
    shown = ", ".join(f"`{p}`" for p in paths[:limit])
    return shown + (f" and {len(paths) - limit} more" if len(paths) > limit else "")


def _run_label(info: RunInfo) -> str:
    when = time.strftime("%H:%M", time.localtime(info.started))
    request = " ".join(info.label.split())
    if len(request) > LABEL_CHARS:
        request = request[: LABEL_CHARS - 1] + "…"
    # The files it changed (a file written back as it was is not named), in the order written.
    changed = [rel for rel in info.files_written if info.changed is None or rel in info.changed]
    files = ", ".join(changed[:3]) + ("…" if len(changed) > 3 else "")
    if info.changed == []:  # wrote files back as they were, or wrote none: undoing it changes nothing
        files = "changed nothing"
    parts = [when, request, files or "no file written"]
    if info.undone and info.held:
        parts.append("held for review (accepting it is a run of its own)")
    elif info.undone:
        parts.append("undone")
    elif not info.is_finished:
        parts.append("did not finish")
    return " · ".join(parts)


def run_choices(workspace: Path) -> list[tuple[str, str]]:
    """(label, run id) of every recorded run, newest first, for the Undo/Redo chooser."""
    try:
        return [(_run_label(info), info.id) for info in RunSnapshots(workspace).runs()]
    except (SnapshotError, OSError):
        return []


def chosen_run(workspace: Path, chosen: str | None) -> str | None:
    """The run the chooser keeps after the workspace changed: the user's choice while it can still
    be undone (an undo that only asked must not move it), else the newest undoable run."""
    runs = _not_undone(workspace)
    if runs is None:
        return None
    return chosen if chosen in {info.id for info in runs} else _offered(runs)


def newest_undoable(workspace: Path) -> str | None:
    """The run Undo offers first (see _offered)."""
    runs = _not_undone(workspace)
    return None if runs is None else _offered(runs)


def _not_undone(workspace: Path) -> list[RunInfo] | None:
    """The runs not undone, newest first; None when the store cannot be read."""
    try:
        return [info for info in RunSnapshots(workspace).runs() if not info.undone]
    except (SnapshotError, OSError):
        return None


def _offered(runs: list[RunInfo]) -> str | None:
    """The last run that changed something (undoing a run that changed nothing would spend the
    user's click on nothing), else the last one."""
    chosen = next((info for info in runs if info.changed != []), runs[0] if runs else None)
    return chosen.id if chosen else None


def run_files(workspace: Path) -> list[str]:
    """The files the last (not undone) run changed, for the Reject choice: a file it wrote back as
    it was has nothing to reject."""
    try:
        info = RunSnapshots(workspace).last_run()
    except (SnapshotError, OSError):
        return []
    if info is None:
        return []
    return [rel for rel in info.files_written if info.changed is None or rel in info.changed]


def reject_file(
    workspace: Path, rel: str | None, agreed: PendingUndo | None = None
) -> tuple[str, PendingUndo | None]:
    """Reject one file of the last run. A file the run created would be deleted: as Undo, that
    waits for the user's yes (`agreed`, a PendingUndo naming that file). Returns (message, pending)."""
    if not rel:
        return "Choose a file of the last run to reject.", None
    confirmed = agreed is not None and agreed.reject == rel
    try:
        return f"Rejected {RunSnapshots(workspace).reject_file(rel, confirm_delete=confirmed)}.", None
    except RejectNeedsConfirmationError as exc:
        asked = f"**Reject `{exc.rel}`?** The last run created it, so rejecting it **deletes** it."
        return asked, PendingUndo("", [exc.rel], reject=exc.rel)
    except NothingToUndoError as exc:
        return str(exc).capitalize() + ".", None
    except (SnapshotError, OSError) as exc:
        return f"Not rejected: {exc}.", None


def plan_text(plan: UndoPlan) -> str:
    """What an undo will do, asked before it deletes anything."""
    lines = [f"**Undo {quoted(plan.label)}?**"]
    if plan.whole_tree:
        lines.append("That run never finished, so the whole workspace goes back to how it was before it.")
    if plan.restore:
        lines.append(f"Puts back as before the run: {_named(plan.restore)}.")
    lines.append(
        f"**Deletes** {_named(plan.delete)}: that run created "
        + ("it. Redo brings it back." if len(plan.delete) == 1 else "them. Redo brings them back.")
        if plan.delete
        else "Deletes nothing."
    )
    if plan.merged:
        lines.append(
            "Changed again since the run, so only the run's change is taken out (the later edits"
            f" stay): {_named(plan.merged)}."
        )
    if plan.kept:
        lines.append("Kept as they are now: " + "; ".join(plan.kept))
    return "\n\n".join(lines)


def _undone_text(result: UndoResult) -> str:
    restored = _named(result.restored) or "nothing"
    deleted = f"; deleted {_named(result.deleted)}" if result.deleted else ""
    text = f"Undid {quoted(result.label)}: put back {restored}{deleted}. Redo brings the run back."
    if result.merged:
        text += f" In {_named(result.merged)} only the run's change was taken out: the later edits stay."
    if result.not_restored:
        text += " Kept as they are now: " + "; ".join(result.not_restored)
    return text


def undo_run(
    workspace: Path, run_id: str | None, agreed: PendingUndo | None = None
) -> tuple[str, PendingUndo | None]:
    """Undo the chosen run (None: the last one). It deletes only what the user agreed to: when it
    would delete files and `agreed` does not cover them, nothing changes and the answer is the plan
    with a PendingUndo to confirm. Returns (message, pending or None)."""
    if agreed is not None and run_id is not None and agreed.run_id != run_id:
        agreed = None  # the user chose another run since: its deletions were never agreed
    allow = agreed.delete if agreed else []
    try:
        result = RunSnapshots(workspace).undo(run_id, allow_delete=allow)
    except UndoNeedsConfirmationError as exc:
        plan = exc.plan
        asked = plan_text(plan)
        if agreed is not None:  # the workspace changed since the question
            asked = "The workspace changed since you were asked; here is the undo as it is now.\n\n" + asked
        return asked, PendingUndo(plan.run_id, list(plan.delete))
    except UndoConflictError as exc:
        where = literal("; ".join(exc.conflicts))
        return (
            f"**Not undone.** The change of {quoted(exc.label)} and a later edit touch the same lines in"
            f" {where}. Nothing was changed: edit those lines by hand, or undo the later run first."
        ), None
    except NothingToUndoError as exc:
        return str(exc).capitalize() + ".", None
    except (SnapshotError, OSError) as exc:
        return f"Undo failed: {exc}", None
    return _undone_text(result), None


def redo_run(workspace: Path, run_id: str | None = None) -> tuple[str, str | None]:
    """Redo the chosen run if it is undone, else the run undone last. Returns the message and
    the redone run's id (the run chooser follows it), or None when nothing was redone."""
    redone: list[str] = []

    def redo(snaps: RunSnapshots) -> UndoResult:
        chosen = next((r for r in snaps.runs() if r.id == run_id), None)
        result = snaps.redo(run_id if chosen is not None and chosen.undone else None)
        redone.append(result.run_id)
        return result

    result = _on_snapshots(workspace, redo, "Redo failed: {}")
    if isinstance(result, str):
        return result, None
    changed = ", ".join(result.restored + result.deleted) or "nothing to change"
    text = f"Redid {quoted(result.label)}: {changed}."
    if result.merged:
        text += f" In {_named(result.merged)} the run's change was merged with the later edits."
    if result.not_restored:
        text += " Kept as they are now: " + "; ".join(result.not_restored)
    return text, redone[0]


def run_diff(workspace: Path, run_id: str | None) -> str:
    """The chosen run's change as a coloured diff (none chosen: the last run's)."""
    if not run_id:
        return last_run_diff(workspace)
    try:
        info, diff = RunSnapshots(workspace).run_diff(run_id)
    except (SnapshotError, OSError) as exc:
        return f"Cannot read that run: {exc}"
    if info is None:
        return last_run_diff(workspace)
    state = " (held for review)" if info.held else (" (undone)" if info.undone else "")
    return f"Run: {quoted(info.label)}{state}\n\n" + (coloured_diff(diff) if diff else "(no file changes)")
