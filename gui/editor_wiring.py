"""The editor's events: open a file from the tree, a retrieved-context row or the File box (Enter),
Discard edits and open, the unsaved marker, Save. Opening never drops unsaved typing (gui/editor_guard.py)."""

from __future__ import annotations

import stat
from typing import Any

import gradio as gr

from gui.disk_refresh import DiskRefresh
from gui.editor_guard import MARK_JS, OPENED_JS, is_dirty, opening_js, refused_open
from gui.ide_state import IdeState
from gui.page_layout import EDITOR_TAB, CodeTab, Sidebar
from gui.workspace_actions import OpenedFile, disk_version, language_for, open_file, relative_in, save_file
from tools.search_hit import Hit
from tools.workspace_files import WorkspaceError, WorkspaceFiles

# Scroll the editor to a line: CodeMirror keeps its scroller in the DOM; lines are equal height.
SCROLL_TO_LINE_JS = """
(line) => {
  setTimeout(() => {
    const scroller = document.querySelector('#editor .cm-scroller');
    const first = scroller && scroller.querySelector('.cm-line');
    if (scroller && first) { scroller.scrollTop = Math.max(0, (line - 1) * first.offsetHeight); }
  }, 300);
  return [];
}
"""

SHOW_EDITOR = gr.update(selected=EDITOR_TAB)  # an opened file is shown, even from the Last run tab
EDITOR_OUTPUTS = 8  # editor, path, message, opened, baseline, unsaved, wanted, discard
NO_CHANGE = (gr.skip(),) * EDITOR_OUTPUTS


class EditorFiles:
    def __init__(self, state: IdeState) -> None:
        self.state = state

    @staticmethod
    def opened_outputs(rel: str, content: str, message: str, what: OpenedFile) -> tuple[Any, ...]:
        code = gr.Code(value=content, language=language_for(rel), interactive=what.editable)
        return code, rel, message, what, content, "", None, gr.Button(visible=False)

    def show_file(self, selected: Any, text: str, base: str, what_open: OpenedFile | None) -> tuple[Any, ...]:
        rel = relative_in(self.state.workspace, selected)
        if rel is None:  # a refresh clears the tree's selection: the open file stays open
            return NO_CHANGE
        if is_dirty(text, base, what_open):
            if what_open is not None and rel == what_open.rel:
                return NO_CHANGE  # the file being edited: reopening would drop the edits
            # Never drop the user's typing: say why, and offer the explicit way.
            skip = gr.skip()
            return (skip, skip, refused_open(rel, what_open), skip, skip, skip, rel,
                    gr.Button(f"Discard edits and open {rel}", visible=True))  # fmt: skip
        return self.opened_outputs(rel, *open_file(self.state.workspace, rel))

    def open_typed(self, typed: str, text: str, base: str, what_open: OpenedFile | None) -> tuple[Any, ...]:
        """Enter in the File box opens the file typed there; a name with no file yet is kept for
        Save to create, and the editor is left as it is."""
        rel = (typed or "").strip()
        if not rel or (what_open is not None and rel == what_open.rel):
            return NO_CHANGE
        if disk_version(self.state.workspace, rel) is None:
            try:
                WorkspaceFiles(self.state.workspace).resolve(rel)
            except (WorkspaceError, ValueError) as exc:
                return gr.skip(), gr.skip(), f"Cannot open `{rel}`: {exc}", *NO_CHANGE[3:]
            message = f"No file `{rel}` yet: Save writes the editor's text there."
            return gr.skip(), gr.skip(), message, *NO_CHANGE[3:]
        return self.show_file(rel, text, base, what_open)

    def discard_and_open(self, rel: str | None) -> tuple[Any, ...]:
        return self.opened_outputs(rel, *open_file(self.state.workspace, rel)) if rel else NO_CHANGE

    def save(self, rel: str, text: str, what: OpenedFile | None) -> Any:
        return save_file(self.state.workspace, rel, text, what)

    @staticmethod
    def mark_saved(text: str, what: OpenedFile | None, message: str) -> tuple[Any, Any]:
        if not message.startswith("Saved"):
            return gr.skip(), gr.skip()  # not written: the edits are still unsaved
        return text, ""

    def open_hit(
        self, rows: list[Hit], text: str, base: str, what: OpenedFile | None, evt: gr.SelectData
    ) -> tuple[Any, ...]:
        row = evt.index[0] if isinstance(evt.index, (list, tuple)) else evt.index
        if not rows or row is None or row >= len(rows):
            return (*NO_CHANGE, gr.skip(), gr.skip())
        hit = rows[row]
        shown = self.show_file(hit.path, text, base, what)
        if not isinstance(shown[1], str):
            return (*shown, gr.skip(), SHOW_EDITOR)  # unsaved edits: not opened; the editor says why
        where = f"`{shown[1]}` lines {hit.start_line}-{hit.end_line}"
        return (*shown[:2], where, *shown[3:], hit.start_line, SHOW_EDITOR)

    def open_clicked(
        self, text: str, base: str, what: OpenedFile | None, evt: gr.SelectData
    ) -> tuple[Any, ...]:
        """A click on a name in the tree (Gradio's explorer opened only on its checkbox)."""
        rel = evt.value if isinstance(evt.value, str) else None
        if not rel or self.is_folder(rel):
            return (*NO_CHANGE, gr.skip())
        return (*self.show_file(rel, text, base, what), SHOW_EDITOR)

    def show_checked(self, selected: Any, text: str, base: str, what: OpenedFile | None) -> tuple[Any, ...]:
        shown = self.show_file(selected, text, base, what)
        return (*shown, gr.skip() if shown == NO_CHANGE else SHOW_EDITOR)

    def is_folder(self, rel: str) -> bool:
        try:
            return stat.S_ISDIR(WorkspaceFiles(self.state.workspace).lstat(rel).st_mode)
        except (WorkspaceError, ValueError, OSError):
            return False


def wire_editor(state: IdeState, code: CodeTab, side: Sidebar, disk: DiskRefresh) -> None:
    handlers, e = EditorFiles(state), code.editor
    outputs = [e.editor, e.open_path, e.file_message, e.opened, e.baseline, e.unsaved, e.wanted, e.discard]
    assert len(outputs) == EDITOR_OUTPUTS
    now = [e.editor, e.baseline, e.opened]
    # No progress overlay: opening is quick, and the overlay hid the unsaved marker meanwhile. Each
    # open locks the editor in the browser until its answer is shown (editor_guard.opening_js).
    code.explorer.change(
        handlers.show_checked, [code.explorer, *now], [*outputs, code.tabs], api_visibility="private",
        show_progress="hidden", js=opening_js(4),
    ).then(None, js=OPENED_JS)  # fmt: skip
    code.explorer.select(
        handlers.open_clicked, now, [*outputs, code.tabs], api_visibility="private", show_progress="hidden",
        js=opening_js(3),
    ).then(None, js=OPENED_JS)  # fmt: skip
    e.open_path.submit(
        handlers.open_typed, [e.open_path, *now], outputs, api_visibility="private", js=opening_js(4)
    ).then(None, js=OPENED_JS)
    e.discard.click(
        handlers.discard_and_open, e.wanted, outputs, api_visibility="private", js=opening_js(1)
    ).then(None, js=OPENED_JS)
    e.editor.input(None, [e.editor, e.baseline], e.unsaved, js=MARK_JS)
    code.refresh.click(disk.fresh_tree, None, code.explorer, api_visibility="private")
    e.save.click(
        handlers.save, [e.open_path, e.editor, e.opened], [e.file_message, e.opened], api_name="save_file"
    ).then(
        handlers.mark_saved,
        [e.editor, e.opened, e.file_message],
        [e.baseline, e.unsaved],
        api_visibility="private",
    ).then(disk.fresh_tree, None, code.explorer, api_visibility="private")
    line = gr.Number(visible=False)
    side.context.select(
        handlers.open_hit, [code.hits, *now], [*outputs, line, code.tabs], api_visibility="private",
        js=opening_js(4),
    ).then(None, js=OPENED_JS).then(None, line, None, js=SCROLL_TO_LINE_JS)  # fmt: skip
