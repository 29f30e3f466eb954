"""What the page re-reads after the workspace changed on disk (a run, an undo, a save, another
workspace): the file tree, the last run's diff and run lists, and the editor."""

from __future__ import annotations

from typing import Any

import gradio as gr

from gui.editor_guard import after_disk_change
from gui.ide_state import IdeState
from gui.page_layout import TREE_GLOBS, CodeTab
from gui.run_review import chosen_run, run_choices, run_diff, run_files
from gui.workspace_actions import OpenedFile, language_for, last_run_diff


class DiskRefresh:
    def __init__(self, state: IdeState, code: CodeTab) -> None:
        self.state = state
        self._tree_refreshes: dict[str, int] = {}  # per browser session, so each tab's glob changes
        self._run_events: list[Any] = []  # each run's refresh, for what follows every run
        self._after_runs: list[tuple[Any, list[Any]]] = []
        editor, last_run = code.editor, code.last_run
        self.inputs = [editor.editor, editor.baseline, editor.opened, last_run.run_choice]
        self.outputs = [
            code.explorer, last_run.diff, editor.editor, editor.baseline, editor.opened,
            editor.file_message, editor.unsaved, last_run.reject_choice, last_run.run_choice,
        ]  # fmt: skip

    def fresh_tree(self, request: gr.Request) -> Any:
        """The file tree re-read (after a run, a save, an undo, or a new workspace)."""
        session = request.session_hash or ""
        self._tree_refreshes[session] = self._tree_refreshes.get(session, 0) + 1
        glob = TREE_GLOBS[self._tree_refreshes[session] % 2]
        return gr.FileExplorer(root_dir=self.state.workspace, glob=glob)

    def files_and_diff(self, request: gr.Request) -> tuple[Any, str]:
        return self.fresh_tree(request), last_run_diff(self.state.workspace)

    def after_disk_changes(
        self, text: str, base: str, what: OpenedFile | None, run_id: str | None, request: gr.Request
    ) -> tuple[Any, ...]:
        """After a run or an undo: the tree, the diff, the run lists, and the editor (the new text,
        unless the user has unsaved edits, which stay)."""
        workspace = self.state.workspace
        chosen = chosen_run(workspace, run_id)
        tree, diff_text = self.fresh_tree(request), run_diff(workspace, chosen)  # the chosen run's diff
        review = gr.Dropdown(choices=run_files(workspace), value=None)
        runs = gr.Dropdown(choices=run_choices(workspace), value=chosen)
        change = after_disk_change(workspace, text or "", base or "", what)
        skip = gr.skip()
        if change.text is None:
            return tree, diff_text, skip, skip, skip, change.message or skip, skip, review, runs
        assert change.opened is not None
        rel = change.opened.rel
        code = gr.Code(value=change.text, language=language_for(rel), interactive=change.opened.editable)
        return tree, diff_text, code, change.text, change.opened, change.message, "", review, runs

    def after_a_run(
        self, text: str, base: str, what: OpenedFile | None, run_id: str | None, request: gr.Request
    ) -> tuple[Any, ...]:
        """After a crew run: as after any change, with the new run chosen for Undo (the choice
        left on an earlier run made Undo undo that one instead)."""
        del run_id
        return self.after_disk_changes(text, base, what, None, request)

    def then_refresh(self, event: Any, *, new_run: bool = False) -> Any:
        """Chain the refresh after an event that may have changed the workspace."""
        refresh = self.after_a_run if new_run else self.after_disk_changes
        done = event.then(refresh, self.inputs, self.outputs, api_visibility="private")
        if new_run:
            self._run_events.append(done)
            for again, outputs in self._after_runs:
                done.then(again, None, outputs, api_visibility="private")
        return done

    def also_after_runs(self, refresh: Any, outputs: list[Any]) -> None:
        """`refresh` fills `outputs` after every run, too (the Review tab, open during a run that
        held its change, said "No staged change waits" until it was opened again)."""
        self._after_runs.append((refresh, outputs))
        for done in self._run_events:
            done.then(refresh, None, outputs, api_visibility="private")
