"""The IDE page's layout: the header, the live sidebar and the Code tab (files, chat, editor, last
run), each built by its own function and returned as the components the wiring needs. No event is
wired here (gui/*_wiring.py do that); the Model and Settings tabs live in model_tab.py and
settings_tab.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr

from gui.exact_code import ExactCode
from gui.file_tree import ConfinedFileExplorer
from gui.ide_state import IdeState
from gui.review_tab import ReviewTab, build_review_tab
from gui.run_review import newest_undoable, run_choices, run_diff, run_files
from gui.sidebar_html import timeline_html
from gui.status_line import status_html

# An empty chat says what to do, with a request that works on the small default model.
EMPTY_CHAT = (
    "**Ask the crew for a change to this workspace.** For example:\n\n"
    "*Write fizzbuzz.py that prints FizzBuzz for 1..15, with a test.*\n\n"
    "It plans, writes, runs the checks and reviews; **Undo** in *Last run* takes a run back."
)
CONTEXT_HEADERS = ["file:lines", "symbol", "score", "snippet"]
# Two globs that match the same files: Gradio's FileExplorer re-lists its folder only when root_dir,
# glob or ignore_glob change (gradio issues 7788, 9785), so each refresh swaps to the other one.
TREE_GLOBS = ("**/*", "*/*")
MODEL_GROUP = "model"  # one queue slot for loads and undos; runs wait in CrewSession's own queue
EDITOR_TAB = "editor-tab"
CHAT_HEIGHT = 330  # with the run line (two lines), the request box and Send: fits a 768-pixel screen


@dataclass
class Header:
    status: Any
    index_cancel: Any
    index_again: Any


@dataclass
class Sidebar:
    context_source: Any
    context: Any
    timeline: Any


@dataclass
class ChatColumn:
    chat: Any
    run_line: Any  # queue place, or elapsed time and round
    request: Any
    send: Any
    stop: Any
    cancel: Any  # withdraws this tab's waiting requests
    clear_chat: Any  # New conversation


@dataclass
class EditorTab:
    open_path: Any
    unsaved: Any
    editor: Any
    save: Any
    discard: Any
    file_message: Any
    opened: Any  # State: the OpenedFile the editor holds, per browser tab
    baseline: Any  # the text as opened or last saved
    wanted: Any  # State: a file the user asked for while edits were unsaved


@dataclass
class LastRunTab:
    run_choice: Any
    undo: Any
    redo: Any
    confirm_undo: Any
    keep_all: Any
    pending_undo: Any  # State: the PendingUndo the two buttons above answer
    reject_choice: Any
    reject: Any
    undo_message: Any
    diff: Any


@dataclass
class CodeTab:
    explorer: Any
    refresh: Any
    chat: ChatColumn
    editor: EditorTab
    last_run: LastRunTab
    hits: Any  # State: the retrieved chunks of the last run, for click-to-open
    tabs: Any  # Editor / Last run / Review: opening a file shows the Editor
    review: ReviewTab


def sidebar_fields(side: Sidebar, code: CodeTab) -> list[Any]:
    """The outputs a run's view fills beside the chat, in CrewChat.sidebar_now's order."""
    return [side.timeline, side.context, side.context_source, code.hits]


def build_header(state: IdeState) -> Header:
    with gr.Row():
        gr.Markdown("## LocalCrew", elem_id="title")
        status = gr.HTML(status_html(state), elem_id="status")
        # Indexing a big workspace can take minutes: it can be stopped, and started again.
        index_cancel = gr.Button(
            "Cancel indexing", size="sm", elem_id="index-cancel", visible=state.index.running, scale=0
        )
        index_again = gr.Button("Index again", size="sm", elem_id="index-again", visible=False, scale=0)
    return Header(status, index_cancel, index_again)


def build_sidebar() -> Sidebar:
    with gr.Sidebar(position="right", open=True, width=360, elem_id="sidebar"):
        gr.Markdown("### Retrieved context")
        context_source = gr.Markdown("", elem_id="context-source")
        context = gr.Dataframe(
            headers=CONTEXT_HEADERS,
            value=[],
            interactive=False,
            wrap=True,
            max_height=260,
            elem_id="context",
            label="Click a row to open it",
        )
        gr.Markdown("### Tool calls")
        timeline = gr.HTML(timeline_html([]), elem_id="timeline")
    return Sidebar(context_source, context, timeline)


def build_code_tab(state: IdeState) -> CodeTab:
    """Inside the Code tab's row: the tree, the chat, and the editor / last-run tabs."""
    hits = gr.State([])
    with gr.Column(scale=1, min_width=220):
        explorer = ConfinedFileExplorer(  # lists through dir fds: no link is followed
            root_dir=state.workspace,
            glob=TREE_GLOBS[0],
            file_count="single",
            label="Workspace",
            elem_id="files",
            max_height=520,
        )
        refresh = gr.Button("Refresh files", size="sm", elem_id="refresh-files")
    with gr.Column(scale=3, min_width=300):
        chat = _chat_column()
    with gr.Column(scale=3, min_width=300), gr.Tabs(elem_id="code-tabs") as tabs:
        with gr.Tab("Editor", id=EDITOR_TAB):
            editor = _editor_tab()
        with gr.Tab("Last run", id="diff-tab"):
            last_run = _last_run_tab(state)
        with gr.Tab("Review", id="review-tab") as review_tab:
            review = build_review_tab(state)
        review.tab = review_tab
    return CodeTab(explorer, refresh, chat, editor, last_run, hits, tabs, review)


def _chat_column() -> ChatColumn:
    # Sized so that Send stays above the fold at 1366x768 with the sidebar open.
    chat = gr.Chatbot(
        label="Crew", height=CHAT_HEIGHT, elem_id="chat", buttons=["copy"], placeholder=EMPTY_CHAT
    )
    run_line = gr.Markdown("", elem_id="run-line")
    request = gr.Textbox(
        placeholder="Ask the crew, e.g. Write fizzbuzz.py that prints FizzBuzz for 1..15",
        show_label=False,
        lines=1,  # in Gradio one line: Enter sends, Shift+Enter adds a line
        max_lines=6,
        elem_id="request",
    )
    with gr.Row():
        send = gr.Button("Send", variant="primary", elem_id="send", min_width=80)
        stop = gr.Button("Stop", variant="stop", elem_id="stop", min_width=80)
        cancel = gr.Button("Cancel", elem_id="cancel-queued", visible=False, min_width=80)
    with gr.Row():
        gr.Markdown("Enter sends, Shift+Enter adds a line. Ctrl+S saves the editor.", elem_id="keys-hint")
        clear_chat = gr.Button("New conversation", elem_id="clear-chat", size="sm", scale=0, min_width=130)
    return ChatColumn(chat, run_line, request, send, stop, cancel, clear_chat)


def _editor_tab() -> EditorTab:
    with gr.Row(equal_height=True):
        open_path = gr.Textbox(label="File", elem_id="open-path", scale=4)
        unsaved = gr.HTML("", elem_id="unsaved", min_width=90)
    editor = ExactCode(  # Gradio's Code strips a file's final newline
        language="python",
        interactive=True,
        lines=20,  # with the file box and Save: on a 768-pixel screen
        max_lines=20,
        elem_id="editor",
        label="Editor",
    )
    with gr.Row():
        save = gr.Button("Save", size="sm", elem_id="save")
        discard = gr.Button("Discard edits and open", size="sm", elem_id="discard-open", visible=False)
    file_message = gr.Markdown("", elem_id="file-message")
    opened = gr.State(None)
    # Edits are unsaved while the editor differs from the baseline. In the DOM (hidden, not
    # absent) so the unsaved marker is computed in the browser.
    baseline = gr.Textbox("", visible="hidden", elem_id="baseline")
    wanted = gr.State(None)
    return EditorTab(open_path, unsaved, editor, save, discard, file_message, opened, baseline, wanted)


def _last_run_tab(state: IdeState) -> LastRunTab:
    # The actions above the diff: a long diff would push them out of sight.
    with gr.Row(equal_height=True):
        run_choice = gr.Dropdown(
            run_choices(state.workspace), value=newest_undoable(state.workspace),
            label="Run (newest first)", elem_id="run-choice", scale=4,
        )  # fmt: skip
        undo = gr.Button("Undo this run", size="sm", elem_id="undo", scale=1)
        redo = gr.Button("Redo", size="sm", elem_id="redo", scale=1)
    with gr.Row():  # shown only while an undo that deletes files waits for a yes
        confirm_undo = gr.Button(
            "Delete and undo", size="sm", variant="stop", elem_id="undo-confirm", visible=False
        )
        keep_all = gr.Button("Keep everything", size="sm", elem_id="undo-keep", visible=False)
    pending_undo = gr.State(None)
    # Under the buttons it answers: an undo's question must be read before the yes.
    undo_message = gr.Markdown("", elem_id="undo-message")
    with gr.Row(equal_height=True):
        reject_choice = gr.Dropdown(
            run_files(state.workspace), value=None, label="A file of the last run",
            elem_id="reject-file", scale=3,
        )  # fmt: skip
        reject = gr.Button("Reject this file", size="sm", elem_id="reject", scale=1)
    diff = gr.Markdown(run_diff(state.workspace, newest_undoable(state.workspace)), elem_id="diff")
    return LastRunTab(
        run_choice,
        undo,
        redo,
        confirm_undo,
        keep_all,
        pending_undo,
        reject_choice,
        reject,
        undo_message,
        diff,
    )
