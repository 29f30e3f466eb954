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
    run_diff,
    run_files,
    undo_run,
)


class LastRunActions:
    def __init__(self, state: IdeState) -> None:
        self.state = state
        self._redone: dict[str, str] = {}  # per browser session: the run its last Redo brought back

    def last_run_now(self) -> tuple[str, Any, Any]:
        # The layout is built once at start: a reloaded page would show the diff and runs of then.
        workspace = self.state.workspace
        chosen = newest_undoable(workspace)
        return (
            run_diff(workspace, chosen),
            gr.Dropdown(choices=run_files(workspace), value=None),
            gr.Dropdown(choices=run_choices(workspace), value=chosen),
        )

    def chosen_diff(self, run_id: str | None) -> str:
        return run_diff(self.state.workspace, run_id or None)

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
        return self.asked(message, pending, "undo")

    @staticmethod
    def asked(message: str, pending: PendingUndo | None, verb: str) -> tuple[Any, ...]:
        """The message, and the yes / no buttons while a deletion waits for the user's yes."""
        if pending is None:
            return message, None, gr.Button(visible=False), gr.Button(visible=False)
        yes = gr.Button(f"Delete {len(pending.delete)} and {verb}", visible=True)
        return message, pending, yes, gr.Button(visible=True)

    def undo_asking(self, run_id: str | None, request: gr.Request) -> tuple[Any, ...]:
        return self.undo_chosen(run_id, None, request)

    def undo_agreed(self, agreed: PendingUndo | None, request: gr.Request) -> tuple[Any, ...]:
        if agreed is not None and agreed.reject:  # the yes to a Reject that deletes its file
            return self.reject_chosen(agreed.reject, agreed, request)
        return self.undo_chosen(agreed.run_id if agreed else None, agreed, request)

    @staticmethod
    def keep_everything() -> tuple[Any, ...]:
        return "Nothing was undone or rejected.", None, gr.Button(visible=False), gr.Button(visible=False)

    def redo(self, run_id: str | None, request: gr.Request) -> str:
        """Redo; follow_redone then shows the redone run in the chooser (the API answers the
        message alone, as it always did)."""
        with self.state.session.exclusive() as free:
            if not free:
                return "A crew request is running or waiting; try again when it ends."
            message, redone = redo_run(self.state.workspace, run_id or None)
        if redone:
            self._redone[request.session_hash or ""] = redone
        return message

    def follow_redone(self, run_id: str | None, request: gr.Request) -> str | None:
        """The chooser after Redo: the redone run (Undo is one click away again)."""
        return self._redone.pop(request.session_hash or "", None) or run_id

    def reject_chosen(
        self, rel: str | None, agreed: PendingUndo | None, request: gr.Request
    ) -> tuple[Any, ...]:
        with self.state.session.exclusive(request.session_hash or "") as free:
            if not free:
                message, pending = "A crew request is running or waiting; try again when it ends.", None
            else:
                message, pending = reject_file(self.state.workspace, rel, agreed)
        return self.asked(message, pending, "reject")

    def reject(self, rel: str | None, request: gr.Request) -> tuple[Any, ...]:
        return self.reject_chosen(rel, None, request)


def wire_last_run(page: gr.Blocks, state: IdeState, code: CodeTab, disk: DiskRefresh) -> None:
    actions, tab = LastRunActions(state), code.last_run
    page.load(
        actions.last_run_now, None, [tab.diff, tab.reject_choice, tab.run_choice], api_visibility="private"
    )
    tab.run_choice.input(actions.chosen_diff, tab.run_choice, tab.diff, api_visibility="private")
    asking = [tab.undo_message, tab.pending_undo, tab.confirm_undo, tab.keep_all]
    queued = {"concurrency_id": MODEL_GROUP}
    disk.then_refresh(tab.undo.click(actions.undo_asking, tab.run_choice, asking, api_name="undo", **queued))
    disk.then_refresh(
        tab.confirm_undo.click(
            actions.undo_agreed, tab.pending_undo, asking, api_name="undo_confirm", **queued
        )
    )
    tab.keep_all.click(actions.keep_everything, None, asking, api_visibility="private")
    redone = tab.redo.click(actions.redo, tab.run_choice, tab.undo_message, api_name="redo", **queued)
    disk.then_refresh(
        redone.then(actions.follow_redone, tab.run_choice, tab.run_choice, api_visibility="private")
    )
    disk.then_refresh(
        tab.reject.click(actions.reject, tab.reject_choice, asking, api_name="reject_file", **queued)
    )
