"""The IDE page: files and editor, the crew chat, the live sidebar, the model panel, settings.

Layout and wiring only; what each part shows comes from run_view, sidebar_html,
model_panel_data and workspace_actions.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from html import escape
from pathlib import Path
from typing import Any

import gradio as gr

from gui.chat_store import ChatSaver, ChatStore
from gui.crew_session import Ticket
from gui.editor_guard import KEYS_JS, MARK_JS, after_disk_change, is_dirty, refused_open
from gui.exact_code import ExactCode
from gui.file_tree import ConfinedFileExplorer
from gui.ide_state import IdeState
from gui.model_panel_data import (
    LOCAL_FILE,
    check_model_file,
    download_needed,
    engine_settings,
    gauges_html,
    last_reply_markdown,
    model_choices,
    model_markdown,
    plan_preview,
    resolve_choice,
)
from gui.run_review import (
    PendingUndo,
    chosen_run,
    newest_undoable,
    redo_run,
    reject_file,
    run_choices,
    run_files,
    undo_run,
)
from gui.run_view import RunView
from gui.sidebar_html import SIDEBAR_CSS, context_rows, timeline_html
from gui.workspace_actions import (
    OpenedFile,
    language_for,
    last_run_diff,
    open_file,
    relative_in,
    save_file,
)
from models.catalog import catalog_entry
from models.offload_planner import KV_TYPES as KV_CHOICES
from tools.search_hit import Hit

CONTEXT_HEADERS = ["file:lines", "symbol", "score", "snippet"]
# Two globs that match the same files: Gradio's FileExplorer re-lists its folder only when root_dir,
# glob or ignore_glob change (gradio issues 7788, 9785), so each refresh swaps to the other one.
TREE_GLOBS = ("**/*", "*/*")
MODEL_GROUP = "model"  # one queue slot for loads and undos; runs wait in CrewSession's own queue
CHAT_HEIGHT = 330  # with the run line (two lines), the request box and Send: fits a 768-pixel screen
WATCH_S = 2.0  # how often a tab that is not streaming a run re-reads its saved chat

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


PAGE_CSS = """
.lc-unsaved { color: #d97706; font-weight: 600; white-space: nowrap; }
#unsaved { align-self: center; }
#keys-hint, #run-line { font-size: 0.85em; color: #6b7280; }
"""


def offline_theme() -> gr.themes.Base:
    """The default look with system fonts: the stock theme fetches fonts from Google."""
    return gr.themes.Default(
        font=["ui-sans-serif", "system-ui", "Segoe UI", "Roboto", "sans-serif"],
        font_mono=["ui-monospace", "SFMono-Regular", "Consolas", "monospace"],
    )


def _status_html(state: IdeState) -> str:
    status = state.host.status()
    colour = {"ready": "#16a34a", "loading": "#d97706", "error": "#dc2626"}.get(status.state, "#6b7280")
    running = " · <b>crew running</b>" if state.session.busy else ""
    notices = "".join(f'<div style="color:#d97706">{escape(n)}</div>' for n in state.notices)
    return (
        f'<div id="status-line"><span style="color:{colour}">●</span> <b>Model:</b> '
        f"{escape(status.message)} · {escape(state.index.status)}{running}"
        f'<div style="color:#6b7280">Workspace: {escape(str(state.workspace))}</div>{notices}</div>'
    )


def _sidebar_outputs(view: RunView) -> tuple[str, list[list[str]], str]:
    source = f"From {view.context_source}." if view.context_source else ""
    return timeline_html(view.timeline), context_rows(view.context), source


def build_ide_page(state: IdeState) -> gr.Blocks:
    with gr.Blocks(title="LocalCrew") as page:
        hits = gr.State([])  # the retrieved chunks of the last run, for click-to-open
        with gr.Row():
            gr.Markdown("## LocalCrew", elem_id="title")
            status = gr.HTML(_status_html(state), elem_id="status")
            # Indexing a big workspace can take minutes: it can be stopped, and started again.
            index_cancel = gr.Button(
                "Cancel indexing", size="sm", elem_id="index-cancel", visible=state.index.running, scale=0
            )
            index_again = gr.Button("Index again", size="sm", elem_id="index-again", visible=False, scale=0)

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

        with gr.Tabs():
            with gr.Tab("Code", id="code"), gr.Row(equal_height=False):
                with gr.Column(scale=1, min_width=220):
                    explorer = ConfinedFileExplorer(  # lists through dir fds: no link is followed
                        root_dir=state.workspace,
                        glob=TREE_GLOBS[0],
                        ignore_glob="*/.localcrew",
                        file_count="single",
                        label="Workspace",
                        elem_id="files",
                        max_height=520,
                    )
                    refresh = gr.Button("Refresh files", size="sm", elem_id="refresh-files")
                with gr.Column(scale=3, min_width=300):
                    # Sized so that Send stays above the fold at 1366x768 with the sidebar open.
                    chat = gr.Chatbot(label="Crew", height=CHAT_HEIGHT, elem_id="chat", buttons=["copy"])
                    run_line = gr.Markdown("", elem_id="run-line")  # queue place, or elapsed and round
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
                        gr.Markdown(
                            "Enter sends, Shift+Enter adds a line. Ctrl+S saves the editor.",
                            elem_id="keys-hint",
                        )
                        clear_chat = gr.Button(
                            "New conversation", elem_id="clear-chat", size="sm", scale=0, min_width=130
                        )
                with gr.Column(scale=3, min_width=300), gr.Tabs():
                    with gr.Tab("Editor", id="editor-tab"):
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
                            discard = gr.Button(
                                "Discard edits and open", size="sm", elem_id="discard-open", visible=False
                            )
                        file_message = gr.Markdown("", elem_id="file-message")
                        opened = gr.State(None)  # the OpenedFile the editor holds, per browser tab
                        # The text as opened or last saved: edits are unsaved while the editor differs.
                        # In the DOM (hidden, not absent) so the unsaved marker is computed in the browser.
                        baseline = gr.Textbox("", visible="hidden", elem_id="baseline")
                        wanted = gr.State(None)  # a file the user asked for while edits were unsaved
                    with gr.Tab("Last run", id="diff-tab"):
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
                                "Delete and undo",
                                size="sm",
                                variant="stop",
                                elem_id="undo-confirm",
                                visible=False,
                            )
                            keep_all = gr.Button(
                                "Keep everything", size="sm", elem_id="undo-keep", visible=False
                            )
                        pending_undo = gr.State(None)  # the PendingUndo the buttons above answer
                        with gr.Row(equal_height=True):
                            reject_choice = gr.Dropdown(
                                run_files(state.workspace), value=None, label="A file of the last run",
                                elem_id="reject-file", scale=3,
                            )  # fmt: skip
                            reject = gr.Button("Reject this file", size="sm", elem_id="reject", scale=1)
                        undo_message = gr.Markdown("", elem_id="undo-message")
                        diff = gr.Markdown(last_run_diff(state.workspace), elem_id="diff")

            with gr.Tab("Model", id="model"):
                with gr.Row():
                    with gr.Column(scale=3):
                        model_info = gr.Markdown(
                            model_markdown(state.host, state.model_reason), elem_id="model-info"
                        )
                        reply_stats = gr.Markdown(last_reply_markdown(state.host), elem_id="reply-stats")
                    with gr.Column(scale=2):
                        gauges = gr.HTML(gauges_html(host=state.host), elem_id="gauges")
                gr.Markdown("### Choose a model")
                with gr.Row():
                    current = state.settings.model or state.default_model_id
                    is_catalog = catalog_entry(current) is not None
                    choice = gr.Dropdown(
                        model_choices(), value=current if is_catalog else LOCAL_FILE, label="Model",
                        elem_id="model-choice",
                    )  # fmt: skip
                    local_path = gr.Textbox(
                        value="" if is_catalog else current, label="Local .gguf path", elem_id="local-path"
                    )
                with gr.Row():
                    n_ctx = gr.Number(state.settings.n_ctx, label="Context size", precision=0, minimum=512)
                    kv_type = gr.Dropdown(
                        list(KV_CHOICES), value=state.settings.kv_type, label="KV cache type"
                    )
                    layers = gr.Textbox(
                        "auto" if state.settings.n_gpu_layers is None else str(state.settings.n_gpu_layers),
                        label="GPU layers (auto, -1 = all, or a number)",
                    )
                with gr.Row():
                    preview = gr.Button("Preview plan", elem_id="preview-plan")
                    download = gr.Button("Download", elem_id="download")
                    load = gr.Button("Load", variant="primary", elem_id="load-model")
                model_message = gr.Markdown("", elem_id="model-message")

            with gr.Tab("Settings", id="settings"):
                workspace_box = gr.Textbox(
                    str(state.workspace), label="Workspace folder", elem_id="workspace"
                )
                rounds = gr.Slider(1, 10, value=state.settings.rounds, step=1, label="Coder/reviewer rounds")
                temperature = gr.Slider(
                    0.0, 1.5, value=state.settings.temperature, step=0.05, label="Temperature"
                )
                seed = gr.Number(state.settings.seed, label="Seed", precision=0)
                save_settings_button = gr.Button("Save settings", elem_id="save-settings")
                settings_message = gr.Markdown("", elem_id="settings-message")

        tree_refreshes: dict[str, int] = {}  # per browser session, so each tab's glob really changes

        def fresh_tree(request: gr.Request) -> Any:
            """The file tree re-read (after a run, a save, an undo, or a new workspace)."""
            session = request.session_hash or ""
            tree_refreshes[session] = tree_refreshes.get(session, 0) + 1
            return gr.FileExplorer(root_dir=state.workspace, glob=TREE_GLOBS[tree_refreshes[session] % 2])

        def files_and_diff(request: gr.Request) -> tuple[Any, str]:
            return fresh_tree(request), last_run_diff(state.workspace)

        def after_disk_changes(
            text: str, base: str, what: OpenedFile | None, run_id: str | None, request: gr.Request
        ) -> tuple[Any, ...]:
            """After a run or an undo: the tree, the diff, and the editor (the new text, unless the
            user has unsaved edits, which stay)."""
            tree, diff_text = files_and_diff(request)
            review = gr.Dropdown(choices=run_files(state.workspace), value=None)
            runs = gr.Dropdown(
                choices=run_choices(state.workspace), value=chosen_run(state.workspace, run_id)
            )
            change = after_disk_change(state.workspace, text or "", base or "", what)
            skip = gr.skip()
            if change.text is None:
                return tree, diff_text, skip, skip, skip, change.message or skip, skip, review, runs
            assert change.opened is not None
            rel = change.opened.rel
            code = gr.Code(value=change.text, language=language_for(rel), interactive=change.opened.editable)
            return tree, diff_text, code, change.text, change.opened, change.message, "", review, runs

        # ---------- the crew run ----------
        chats: dict[Path, ChatStore] = {}  # one conversation per workspace, shared by the tabs

        def chat_store() -> ChatStore:
            return chats.setdefault(state.workspace, ChatStore(state.workspace))

        def load_chat() -> tuple[list[dict[str, Any]], str]:
            messages, notice = chat_store().load()
            return messages, f"**Note:** {notice}" if notice else ""

        def queue_state(owner: str, ticket: Ticket) -> tuple[str, Any]:
            """The line under the chat (place in the queue, or elapsed time and round) and Cancel."""
            mine = state.session.waiting_count(owner)
            if ticket.state == "waiting":
                text = f"Waiting for the model: {ticket.ahead} ahead of your request."
            elif ticket.state == "running":
                text = state.session.progress.text()
                if mine:
                    text += f" · {mine} more of your requests waiting"
            else:
                text = f"{mine} of your requests waiting." if mine else ""
            return text, gr.Button(visible=mine > 0)

        def run(
            message: str, history: list[dict[str, Any]] | None, request: gr.Request
        ) -> Iterator[tuple[Any, ...]]:
            # The chat comes from the workspace's store, not from this tab's `history`: another tab's
            # run may have finished meanwhile, and the store is what a reload shows.
            owner, ticket, skip = request.session_hash or "", Ticket(request.session_hash or ""), gr.skip()
            if not message.strip():
                ticket.state = "done"  # nothing to queue
            store = chat_store()
            saver = ChatSaver(store)
            ticket.fresh = saver.opens_conversation  # after New conversation: no follow-up memory
            last: tuple[Any, ...] = ()
            box: Any = ""  # the request box is cleared once; what is typed during the run stays
            for view in state.session.run(message, owner=owner, ticket=ticket, on_change=saver):
                line, cancel_button = queue_state(owner, ticket)
                if saver.handle is None:  # not holding the model: waiting, withdrawn or nothing to do
                    if state.session.running_owner == owner:
                        # This tab's chat shows its own running request; this one waits unseen
                        # there, and the line under the chat counts it.
                        yield skip, box, skip, skip, skip, skip, skip, skip
                    else:
                        chat_now = store.load()[0] + view.messages
                        yield chat_now, box, skip, skip, skip, skip, line, cancel_button
                else:
                    lines, rows, source = _sidebar_outputs(view)
                    hit_rows = list(view.context)
                    chat_now = store.before(saver.handle) + view.messages
                    last = (chat_now, skip, lines, rows, source, hit_rows)
                    yield chat_now, box, lines, rows, source, hit_rows, line, cancel_button
                box = skip
            if saver.handle is not None:  # the run is over: the line drops its timer (API callers get it all)
                yield *last, *queue_state(owner, ticket)

        def watch(request: gr.Request) -> tuple[Any, Any]:
            """Another tab's run, or this page's own run from before a reload: the stored chat (saved
            every few seconds while it runs) and its progress."""
            owner, live, skip = request.session_hash or "", state.session.live, gr.skip()
            if live is None or state.session.waiting_count(owner):
                return skip, skip  # nothing to watch, or this tab's waiting request shows its own chat
            if live.ticket.owner == owner and not live.detached:
                return skip, skip  # this tab streams it itself
            if live.finished_at is not None and time.monotonic() - live.finished_at > WATCH_S:
                return skip, skip
            running = live.finished_at is None
            line = f"{state.session.progress.text()} (started in another tab or before a reload)"
            return chat_store().load()[0], line if running else ""

        run_outputs = [chat, request, timeline, context, context_source, hits, run_line, cancel]
        # Requests wait in CrewSession's queue, which shows their place; Gradio's would hide them
        # behind "queue: 1/1". "multiple": a second Send in the same tab queues instead of vanishing.
        # The run line under the chat shows progress: Gradio's spinners over every output go.
        run_args: dict[str, Any] = {
            "concurrency_limit": None,
            "trigger_mode": "multiple",
            "show_progress": "hidden",
        }
        submitted = request.submit(run, [request, chat], run_outputs, api_name="run", **run_args)
        clicked = send.click(run, [request, chat], run_outputs, api_visibility="private", **run_args)
        after_disk_inputs = [editor, baseline, opened, run_choice]
        after_run_outputs = [
            explorer, diff, editor, baseline, opened, file_message, unsaved, reject_choice, run_choice
        ]  # fmt: skip
        for event in (submitted, clicked):
            event.then(
                after_disk_changes,
                after_disk_inputs,
                after_run_outputs,
                api_visibility="private",
            )

        withdrawn_texts: dict[str, list[str]] = {}  # per browser session, for its request box

        def withdraw(owner: str) -> int:
            withdrawn = state.session.withdraw(owner)
            withdrawn_texts.setdefault(owner, []).extend(t.request for t in withdrawn if t.request)
            return len(withdrawn)

        def give_back(box: str, request: gr.Request) -> Any:
            """A withdrawn request's text goes back into an empty request box: typing is never lost."""
            texts = withdrawn_texts.pop(request.session_hash or "", [])
            return "\n\n".join(texts) if texts and not (box or "").strip() else gr.skip()

        def stop_run(request: gr.Request) -> None:
            owner = request.session_hash or ""
            withdraw(owner)
            state.session.stop(owner)

        stop.click(stop_run, None, None, api_name="stop", concurrency_limit=None).then(
            give_back, request, request, api_visibility="private"
        )

        def cancel_waiting(request: gr.Request) -> tuple[str, Any]:
            count = withdraw(request.session_hash or "")
            line = f"Withdrew {count} waiting request(s); the text is back in the box." if count else ""
            return line, gr.Button(visible=False)

        cancel.click(
            cancel_waiting, None, [run_line, cancel], api_name="cancel_waiting", concurrency_limit=None
        ).then(give_back, request, request, api_visibility="private")

        def clear_conversation() -> tuple[list[Any], str]:
            problem = chat_store().clear()
            return [], problem or (
                "New conversation: the next request is not taken as a follow-up of earlier ones."
                " The workspace's files and Undo are as they were."
            )

        clear_chat.click(clear_conversation, None, [chat, run_line], api_name="clear_chat")
        chat.clear(clear_conversation, None, [chat, run_line], api_visibility="private")  # its own bin icon
        page.load(load_chat, None, [chat, run_line], api_visibility="private")

        def last_run_now() -> tuple[str, Any, Any]:
            # Built once at start: a reloaded page would show the diff and files of that moment.
            return (
                last_run_diff(state.workspace),
                gr.Dropdown(choices=run_files(state.workspace), value=None),
                gr.Dropdown(choices=run_choices(state.workspace), value=newest_undoable(state.workspace)),
            )

        page.load(last_run_now, None, [diff, reject_choice, run_choice], api_visibility="private")

        # ---------- files ----------
        editor_outputs = [editor, open_path, file_message, opened, baseline, unsaved, wanted, discard]
        no_change = (gr.skip(),) * len(editor_outputs)

        def opened_outputs(rel: str, content: str, message: str, what: OpenedFile) -> tuple[Any, ...]:
            code = gr.Code(value=content, language=language_for(rel), interactive=what.editable)
            return code, rel, message, what, content, "", None, gr.Button(visible=False)

        def show_file(selected: Any, text: str, base: str, what_open: OpenedFile | None) -> tuple[Any, ...]:
            rel = relative_in(state.workspace, selected)
            if rel is None:  # a refresh clears the tree's selection: the open file stays open
                return no_change
            if is_dirty(text, base, what_open):
                if what_open is not None and rel == what_open.rel:
                    return no_change  # the file being edited: reopening would drop the edits
                # Never drop the user's typing: say why, and offer the explicit way.
                skip = gr.skip()
                return (skip, skip, refused_open(rel, what_open), skip, skip, skip, rel,
                        gr.Button(f"Discard edits and open {rel}", visible=True))  # fmt: skip
            return opened_outputs(rel, *open_file(state.workspace, rel))

        def discard_and_open(rel: str | None) -> tuple[Any, ...]:
            return opened_outputs(rel, *open_file(state.workspace, rel)) if rel else no_change

        explorer.change(
            show_file, [explorer, editor, baseline, opened], editor_outputs, api_visibility="private"
        )
        discard.click(discard_and_open, wanted, editor_outputs, api_visibility="private")
        editor.input(None, [editor, baseline], unsaved, js=MARK_JS)
        refresh.click(fresh_tree, None, explorer, api_visibility="private")

        def mark_saved(text: str, what: OpenedFile | None, message: str) -> tuple[Any, Any]:
            if not message.startswith("Saved"):
                return gr.skip(), gr.skip()  # not written: the edits are still unsaved
            return text, ""

        save.click(
            lambda rel, text, what: save_file(state.workspace, rel, text, what),
            [open_path, editor, opened],
            [file_message, opened],
            api_name="save_file",
        ).then(
            mark_saved, [editor, opened, file_message], [baseline, unsaved], api_visibility="private"
        ).then(fresh_tree, None, explorer, api_visibility="private")

        def open_hit(
            rows: list[Hit], text: str, base: str, what: OpenedFile | None, evt: gr.SelectData
        ) -> tuple[Any, ...]:
            row = evt.index[0] if isinstance(evt.index, (list, tuple)) else evt.index
            if not rows or row is None or row >= len(rows):
                return (*no_change, gr.skip())
            hit = rows[row]
            shown = show_file(hit.path, text, base, what)
            if not isinstance(shown[1], str):
                return (*shown, gr.skip())  # unsaved edits: not opened
            where = f"`{shown[1]}` lines {hit.start_line}-{hit.end_line}"
            return (*shown[:2], where, *shown[3:], hit.start_line)

        line = gr.Number(visible=False)
        context.select(
            open_hit, [hits, editor, baseline, opened], [*editor_outputs, line], api_visibility="private"
        ).then(None, line, None, js=SCROLL_TO_LINE_JS)

        def undo_chosen(
            run_id: str | None, agreed: PendingUndo | None, request: gr.Request
        ) -> tuple[Any, ...]:
            """Undo the chosen run; when it would delete files, ask first (the two buttons below).
            `agreed`: the question the user said yes to (None for the Undo button itself)."""
            with state.session.exclusive(request.session_hash or "") as free:
                if not free:
                    message, pending = "A crew request is running or waiting; undo when it ends.", None
                else:
                    message, pending = undo_run(state.workspace, run_id or None, agreed)
            asking = gr.Button(visible=pending is not None)
            if pending is not None:
                yes = gr.Button(f"Delete {len(pending.delete)} and undo", visible=True)
                return message, pending, yes, asking
            return message, None, gr.Button(visible=False), asking

        undo_outputs = [undo_message, pending_undo, confirm_undo, keep_all]

        def undo_asking(run_id: str | None, request: gr.Request) -> tuple[Any, ...]:
            return undo_chosen(run_id, None, request)

        def undo_agreed(agreed: PendingUndo | None, request: gr.Request) -> tuple[Any, ...]:
            return undo_chosen(agreed.run_id if agreed else None, agreed, request)

        undo.click(
            undo_asking,
            run_choice,
            undo_outputs,
            api_name="undo",
            concurrency_id=MODEL_GROUP,
        ).then(after_disk_changes, after_disk_inputs, after_run_outputs, api_visibility="private")
        confirm_undo.click(
            undo_agreed,
            pending_undo,
            undo_outputs,
            api_name="undo_confirm",
            concurrency_id=MODEL_GROUP,
        ).then(after_disk_changes, after_disk_inputs, after_run_outputs, api_visibility="private")
        keep_all.click(
            lambda: ("Nothing was undone.", None, gr.Button(visible=False), gr.Button(visible=False)),
            None,
            undo_outputs,
            api_visibility="private",
        )

        def review_action(action: Any, *args: Any) -> str:
            with state.session.exclusive() as free:
                if not free:
                    return "A crew request is running or waiting; try again when it ends."
                return action(state.workspace, *args)

        redo.click(
            lambda run_id: review_action(redo_run, run_id or None),
            run_choice,
            undo_message,
            api_name="redo",
            concurrency_id=MODEL_GROUP,
        ).then(after_disk_changes, after_disk_inputs, after_run_outputs, api_visibility="private")
        reject.click(
            lambda rel: review_action(reject_file, rel),
            reject_choice,
            undo_message,
            api_name="reject_file",
            concurrency_id=MODEL_GROUP,
        ).then(after_disk_changes, after_disk_inputs, after_run_outputs, api_visibility="private")

        # ---------- model ----------
        def parse_layers(text: str) -> int | None:
            text = (text or "").strip().lower()
            return None if text in ("", "auto") else int(text)

        def settings_from_panel(ctx: float, kv: str, layer_text: str) -> Any:
            from dataclasses import replace

            return replace(
                state.settings, n_ctx=int(ctx or 4096), kv_type=kv, n_gpu_layers=parse_layers(layer_text)
            ).validated()

        def preview_plan(chosen: str, path: str, ctx: float, kv: str, layer_text: str) -> str:
            try:
                return plan_preview(chosen, path, settings_from_panel(ctx, kv, layer_text))
            except ValueError:
                return "GPU layers must be auto, -1 or a whole number."

        def download_model_with_progress(chosen: str, progress: gr.Progress = gr.Progress()) -> str:  # noqa: B008
            from models.download import DownloadError
            from models.download import download_model as fetch

            entry = catalog_entry(chosen)
            if entry is None or entry.repo is None:
                return "Choose a catalog model to download (the bundled one is already here)."
            if not download_needed(chosen):
                return f"{entry.title} is already downloaded."
            progress(0, desc=f"Downloading {entry.filename}")

            def report(done: int, total: int) -> None:
                progress(
                    (done, total or entry.size_bytes), desc=f"Downloading {entry.filename}", unit="bytes"
                )

            try:
                path = fetch(entry, on_progress=report)
            except DownloadError as exc:
                return f"**Download failed:** {exc}"
            return f"Downloaded to `{path}`. Press Load to use it."

        def load_model(chosen: str, path: str, ctx: float, kv: str, layer_text: str) -> str:
            try:
                new_settings = settings_from_panel(ctx, kv, layer_text)
                model_path = resolve_choice(chosen, path)
                check_model_file(model_path)  # a bad file is refused before the loaded model goes
            except ValueError as exc:  # ModelNotFoundError and GGUFError are ValueErrors too
                return f"**Not loaded:** {exc} The current model stays loaded."
            with state.session.exclusive() as free:  # a run must not lose its model mid-way
                if not free:
                    return "**Not loaded:** a crew request is running or waiting; load when it ends."
                return switch_model(chosen, model_path, new_settings)

        def switch_model(chosen: str, model_path: Any, new_settings: Any) -> str:
            previous = (state.settings, state.host.label, state.host.settings, state.model_reason)
            new_settings.model = str(model_path) if chosen == LOCAL_FILE else chosen
            state.host.switch(str(model_path), engine_settings(new_settings))
            status = state.host.wait()
            if status.state != "ready":
                # Nothing is saved, and the model that worked comes back.
                state.settings, label, host_settings, state.model_reason = previous
                if label:
                    state.host.switch(label, host_settings)
                return (
                    f"**Load failed:** {status.message} The previous model is loading again;"
                    " nothing was saved."
                )
            state.settings, state.model_reason = new_settings, "chosen in this panel"
            return f"{status.message}. {state.save()}"

        preview.click(preview_plan, [choice, local_path, n_ctx, kv_type, layers], model_message,
                      api_name="preview_plan")  # fmt: skip
        download.click(download_model_with_progress, choice, model_message, api_name="download_model")
        load.click(
            load_model,
            [choice, local_path, n_ctx, kv_type, layers],
            model_message,
            api_name="load_model",
            concurrency_id=MODEL_GROUP,
        ).then(
            lambda: model_markdown(state.host, state.model_reason), None, model_info, api_visibility="private"
        )

        # ---------- settings ----------
        def save_user_settings(folder: str, n_rounds: float, temp: float, seed_value: float) -> str:
            state.settings.rounds, state.settings.temperature = int(n_rounds), float(temp)
            state.settings.seed = int(seed_value or 0)
            message = ""
            if folder.strip() and folder.strip() != str(state.workspace):
                message = state.change_workspace(folder.strip()) + " "
            state.settings.validated()
            return message + state.save()

        save_settings_button.click(
            save_user_settings, [workspace_box, rounds, temperature, seed], settings_message,
            api_name="save_settings",
        ).then(
            files_and_diff,
            None,
            [explorer, diff],
            api_visibility="private",
        ).then(load_chat, None, [chat, run_line], api_visibility="private")  # fmt: skip

        # ---------- live status ----------
        watch_timer = gr.Timer(WATCH_S)
        watch_timer.tick(
            watch, None, [chat, run_line], api_visibility="private", show_progress="hidden",
            concurrency_limit=None,
        )  # fmt: skip
        status_timer = gr.Timer(1.0)

        def status_now() -> tuple[str, Any, Any]:
            index = state.index
            stopped = not index.running and (
                index.cancelled or index.status.startswith("Code index unavailable")
            )
            return _status_html(state), gr.Button(visible=index.running), gr.Button(visible=stopped)

        status_timer.tick(status_now, None, [status, index_cancel, index_again], api_visibility="private")
        index_cancel.click(lambda: state.index.cancel(), None, None, api_name="cancel_indexing").then(
            status_now, None, [status, index_cancel, index_again], api_visibility="private"
        )
        index_again.click(lambda: state.index.restart(), None, None, api_name="index_again").then(
            status_now, None, [status, index_cancel, index_again], api_visibility="private"
        )
        model_timer = gr.Timer(2.0)
        model_timer.tick(
            lambda: (
                model_markdown(state.host, state.model_reason),
                gauges_html(host=state.host),
                last_reply_markdown(state.host),
            ),
            None,
            [model_info, gauges, reply_stats],
            api_visibility="private",
        )
    return page


def launch_kwargs() -> dict[str, Any]:
    return {"theme": offline_theme(), "css": SIDEBAR_CSS + PAGE_CSS, "footer_links": [], "js": KEYS_JS}
