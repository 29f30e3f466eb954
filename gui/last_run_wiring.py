"""The Last run tab's events: Undo of the chosen run (asking before it deletes files), its yes and
no, Redo, Reject one file; each then refreshes the tree, the diff, the run lists and the editor.
They hold the model's place while they work, so they never overlap a crew run."""

from __future__ import annotations

from typing import Any

import gradio as gr

from gui.disk_refresh import DiskRefresh
from gui.ide_state import IdeState
from gui.page_layout import MODEL_GROUP, CodeTab
from gui.run_review import (
    PendingUndo,
    newest_undoable,
    redo_run,
    reject_file,
    run_choices,
    run_files,
    undo_run,
)
from gui.workspace_actions import last_run_diff


class LastRunActions:
    def __init__(self, state: IdeState) -> None:
        self.state = state

    def last_run_now(self) -> tuple[str, Any, Any]:
        # The layout is built once at start: a reloaded page would show the diff and runs of then.
        workspace = self.state.workspace
        return (
            last_run_diff(workspace),
            gr.Dropdown(choices=run_files(workspace), value=None),
            gr.Dropdown(choices=run_choices(workspace), value=newest_undoable(workspace)),
        )

    def undo_chosen(
        self, run_id: str | None, agreed: PendingUndo | None, request: gr.Request
    ) -> tuple[Any, ...]:
        """Undo the chosen run; when it would delete files, ask first (the two buttons).
        `agreed`: the question the user said yes to (None for the Undo button itself)."""
        with self.state.session.exclusive(request.session_hash or "") as free:
            if not free:
                message, pending = "A crew request is running or waiting; undo when it ends.", None
            else:
                message, pending = undo_run(self.state.workspace, run_id or None, agreed)
        asking = gr.Button(visible=pending is not None)
        if pending is not None:
            yes = gr.Button(f"Delete {len(pending.delete)} and undo", visible=True)
            return message, pending, yes, asking
        return message, None, gr.Button(visible=False), asking

    def undo_asking(self, run_id: str | None, request: gr.Request) -> tuple[Any, ...]:
        return self.undo_chosen(run_id, None, request)

    def undo_agreed(self, agreed: PendingUndo | None, request: gr.Request) -> tuple[Any, ...]:
        return self.undo_chosen(agreed.run_id if agreed else None, agreed, request)

    @staticmethod
    def keep_everything() -> tuple[Any, ...]:
        return "Nothing was undone.", None, gr.Button(visible=False), gr.Button(visible=False)

    def review_action(self, action: Any, *args: Any) -> str:
        with self.state.session.exclusive() as free:
            if not free:
                return "A crew request is running or waiting; try again when it ends."
            return action(self.state.workspace, *args)

    def redo(self, run_id: str | None) -> str:
        return self.review_action(redo_run, run_id or None)

    def reject(self, rel: str | None) -> str:
        return self.review_action(reject_file, rel)


def wire_last_run(page: gr.Blocks, state: IdeState, code: CodeTab, disk: DiskRefresh) -> None:
    actions, tab = LastRunActions(state), code.last_run
    page.load(
        actions.last_run_now, None, [tab.diff, tab.reject_choice, tab.run_choice], api_visibility="private"
    )
    undo_outputs = [tab.undo_message, tab.pending_undo, tab.confirm_undo, tab.keep_all]
    queued = {"concurrency_id": MODEL_GROUP}
    disk.then_refresh(
        tab.undo.click(actions.undo_asking, tab.run_choice, undo_outputs, api_name="undo", **queued)
    )
    disk.then_refresh(
        tab.confirm_undo.click(
            actions.undo_agreed, tab.pending_undo, undo_outputs, api_name="undo_confirm", **queued
        )
    )
    tab.keep_all.click(actions.keep_everything, None, undo_outputs, api_visibility="private")
    disk.then_refresh(
        tab.redo.click(actions.redo, tab.run_choice, tab.undo_message, api_name="redo", **queued)
    )
    disk.then_refresh(
        tab.reject.click(
            actions.reject, tab.reject_choice, tab.undo_message, api_name="reject_file", **queued
        )
    )
