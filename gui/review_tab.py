"""The Review tab (issue 40 item 3, review before write): a run's staged changes, file by file, as
a diff with Accept / Reject, and per hunk. Nothing is written until accepted; an accepted file is
one undoable run (tools/staged_changes.py does the work). The IDE holds a run's change here when
the Review-before-write setting asks for it (gui/crew_session.py, after the run's checks)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gradio as gr

from gui.ide_state import IdeState
from gui.markdown_text import quoted
from gui.workspace_actions import coloured_diff
from tools.staged_changes import StagedChanges, StagedFile, StagingError

NOTHING_STAGED = "No staged change waits for review. Runs that stage their changes show them here."


@dataclass
class ReviewTab:
    choice: Any  # "stage id/rel" of one waiting file
    diff: Any
    hunks: Any  # the hunks of the chosen file to accept (all ticked at first)
    accept: Any
    accept_all: Any  # every file of the chosen file's run, as one undoable write
    reject: Any
    message: Any
    tab: Any = None  # the tab itself: opening it re-reads what waits (a run may have held a change)
    reject_all: Any = None  # every file of the chosen file's run dropped


def build_review_tab(state: IdeState) -> ReviewTab:
    with gr.Row(equal_height=True):
        choice = gr.Dropdown(
            waiting_files(state.workspace), value=None, label="A staged file", elem_id="review-file", scale=4
        )
        accept = gr.Button("Accept", size="sm", variant="primary", elem_id="review-accept", scale=1)
        accept_all = gr.Button("Accept the run", size="sm", elem_id="review-accept-all", scale=1)
        reject = gr.Button("Reject", size="sm", elem_id="review-reject", scale=1)
        reject_all = gr.Button("Reject the run", size="sm", elem_id="review-reject-all", scale=1)
    hunks = gr.CheckboxGroup(
        [], label="Hunks to accept (each: its line, then its first changed line)", elem_id="review-hunks"
    )
    message = gr.Markdown("", elem_id="review-message")
    diff = gr.Markdown(NOTHING_STAGED, elem_id="review-diff")
    return ReviewTab(choice, diff, hunks, accept, accept_all, reject, message, reject_all=reject_all)


def waiting_files(workspace: Path) -> list[tuple[str, str]]:
    """(label, "id/rel") of every file waiting in a staged set, newest set first."""
    try:
        pending = StagedChanges(workspace).pending()
    except OSError:
        return []
    return [
        (f"{f.rel} · {' '.join(label.split())[:60]}", f"{stage_id}/{f.rel}")
        for stage_id, label, files in pending
        for f in files
    ]


def _find(workspace: Path, key: str | None) -> tuple[str, str, StagedFile] | None:
    stage_id, _, rel = (key or "").partition("/")
    for pending_id, label, files in StagedChanges(workspace).pending():
        if pending_id == stage_id:
            return next(((stage_id, label, f) for f in files if f.rel == rel), None)
    return None


def show_file(workspace: Path, key: str | None) -> tuple[str, Any]:
    """The chosen file's staged diff and its hunks, all ticked."""
    found = _find(workspace, key)
    if found is None:
        text = NOTHING_STAGED if not waiting_files(workspace) else "Choose a staged file."
        return text, gr.update(choices=[], value=[])
    _stage_id, label, staged = found
    hunks = [(h.title(), h.index) for h in staged.hunks()]
    text = f"Staged by {quoted(label)}\n\n{coloured_diff(staged.diff())}"
    return text, gr.update(choices=hunks, value=[index for _label, index in hunks])


def accept_file(workspace: Path, key: str | None, chosen: list[int] | None) -> str:
    found = _find(workspace, key)
    if found is None:
        return "Choose a staged file first."
    stage_id, _label, staged = found
    total = len(staged.hunks())
    if total and not chosen:
        return "No hunk is ticked: tick the hunks to write, or Reject the file."
    hunks = None if chosen is None or len(chosen) == total else [int(h) for h in chosen]
    try:
        return f"Accepted {StagedChanges(workspace).accept(stage_id, staged.rel, hunks)}. Undo takes it back."
    except (StagingError, OSError, ValueError) as exc:
        return f"Not accepted: {exc}"


def _whole_run(
    workspace: Path, key: str | None, act: Callable[[StagedChanges, str], str], failed: str
) -> str:
    """`act` on the chosen file's whole staged run; what it says, or why it could not."""
    found = _find(workspace, key)
    if found is None:
        return "Choose a staged file first."
    try:
        return act(StagedChanges(workspace), found[0])
    except (StagingError, OSError, ValueError) as exc:
        return f"{failed}: {exc}"


def accept_run(workspace: Path, key: str | None) -> str:
    """Every file still waiting from the chosen file's run, whole: all written or none."""
    return _whole_run(
        workspace,
        key,
        lambda staging, stage_id: (
            f"Accepted the run's change ({staging.accept_all(stage_id)}). Undo takes it back."
        ),
        "Not accepted, nothing written",
    )


def reject_file(workspace: Path, key: str | None) -> str:
    found = _find(workspace, key)
    if found is None:
        return "Choose a staged file first."
    try:
        StagedChanges(workspace).reject(found[0], found[2].rel)
        return f"Rejected `{found[2].rel}`: the file was not touched."
    except (StagingError, OSError) as exc:
        return f"Not rejected: {exc}"


def reject_run(workspace: Path, key: str | None) -> str:
    """Every file still waiting from the chosen file's run dropped; nothing written."""
    return _whole_run(
        workspace,
        key,
        lambda staging, stage_id: (
            f"Rejected the run's change ({staging.reject_all(stage_id)}): no file was touched."
        ),
        "Not rejected",
    )


def wire_review_tab(
    page: gr.Blocks, state: IdeState, tab: ReviewTab, then_refresh: Any, after_runs: Any = None
) -> None:
    """`then_refresh`: DiskRefresh.then_refresh, so the tree, editor and runs follow an accept;
    `after_runs`: DiskRefresh.also_after_runs, so the tab shows what a run held while it is open."""

    def refreshed() -> tuple[Any, ...]:
        files = waiting_files(state.workspace)
        first = files[0][1] if files else None
        return (gr.Dropdown(choices=files, value=first), *show_file(state.workspace, first))

    def exclusively(action: Callable[[], str]) -> str:
        with state.session.exclusive() as free:  # never beside a run or an undo
            return action() if free else "A crew request is running; accept when it ends."

    def accept(key: str | None, hunks: list[int] | None) -> str:
        return exclusively(lambda: accept_file(state.workspace, key, hunks))

    def accept_all(key: str | None) -> str:
        return exclusively(lambda: accept_run(state.workspace, key))

    choose = [tab.choice, tab.diff, tab.hunks]
    page.load(refreshed, None, choose, api_visibility="private")
    if tab.tab is not None:
        # Opened again, the tab shows what waits now; the last accept's or reject's line goes.
        tab.tab.select(lambda: (*refreshed(), ""), None, [*choose, tab.message], api_visibility="private")
    if after_runs is not None:
        after_runs(lambda: (*refreshed(), ""), [*choose, tab.message])
    tab.choice.input(lambda key: show_file(state.workspace, key), tab.choice, [tab.diff, tab.hunks])
    accepted = tab.accept.click(accept, [tab.choice, tab.hunks], tab.message, api_name="review_accept")
    # An accept is a new run: Undo offers it (left on the run chosen before, Undo took back an
    # earlier crew run instead of the accepted change).
    then_refresh(accepted.then(refreshed, None, choose, api_visibility="private"), new_run=True)
    all_accepted = tab.accept_all.click(accept_all, tab.choice, tab.message, api_name="review_accept_all")
    then_refresh(all_accepted.then(refreshed, None, choose, api_visibility="private"), new_run=True)
    tab.reject.click(
        lambda key: reject_file(state.workspace, key), tab.choice, tab.message, api_name="review_reject"
    ).then(refreshed, None, choose, api_visibility="private")
    if tab.reject_all is not None:
        tab.reject_all.click(
            lambda key: reject_run(state.workspace, key),
            tab.choice,
            tab.message,
            api_name="review_reject_all",
        ).then(refreshed, None, choose, api_visibility="private")
