"""The IDE page: files and editor, the crew chat, the live sidebar, the model panel, settings.

Layout and wiring only; what each part shows comes from run_view, sidebar_html,
model_panel_data and workspace_actions.
"""

from __future__ import annotations

from collections.abc import Iterator
from html import escape
from typing import Any

import gradio as gr

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
from gui.run_view import RunView
from gui.sidebar_html import SIDEBAR_CSS, context_rows, timeline_html
from gui.user_settings import KV_CHOICES
from gui.workspace_actions import (
    language_for,
    last_run_diff,
    open_file,
    relative_in,
    save_file,
    undo_last_run,
)
from models.catalog import catalog_entry

CONTEXT_HEADERS = ["file:lines", "symbol", "score", "snippet"]
# Two globs that match the same files: Gradio's FileExplorer re-lists its folder only when root_dir,
# glob or ignore_glob change (gradio issues 7788, 9785), so each refresh swaps to the other one.
TREE_GLOBS = ("**/*", "*/*")
MODEL_GROUP = "model"  # one queue slot for everything that uses the model: runs never interleave

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

        with gr.Sidebar(position="right", open=True, width=420, elem_id="sidebar"):
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
                    explorer = gr.FileExplorer(
                        root_dir=state.workspace,
                        glob=TREE_GLOBS[0],
                        ignore_glob="*/.localcrew",
                        file_count="single",
                        label="Workspace",
                        elem_id="files",
                        max_height=520,
                    )
                    refresh = gr.Button("Refresh files", size="sm", elem_id="refresh-files")
                with gr.Column(scale=3, min_width=360):
                    chat = gr.Chatbot(label="Crew", height=520, elem_id="chat", buttons=["copy"])
                    request = gr.Textbox(
                        placeholder="Ask the crew, e.g. Write fizzbuzz.py that prints FizzBuzz for 1..15",
                        show_label=False,
                        lines=2,
                        max_lines=6,
                        elem_id="request",
                    )
                    with gr.Row():
                        send = gr.Button("Send", variant="primary", elem_id="send")
                        stop = gr.Button("Stop", variant="stop", elem_id="stop")
                with gr.Column(scale=3, min_width=360), gr.Tabs():
                    with gr.Tab("Editor", id="editor-tab"):
                        open_path = gr.Textbox(label="File", elem_id="open-path")
                        editor = gr.Code(
                            language="python",
                            interactive=True,
                            lines=22,
                            max_lines=22,
                            elem_id="editor",
                            label="Editor",
                        )
                        with gr.Row():
                            save = gr.Button("Save", size="sm", elem_id="save")
                        file_message = gr.Markdown("", elem_id="file-message")
                        opened = gr.State(None)  # the OpenedFile the editor holds, per browser tab
                    with gr.Tab("Last run", id="diff-tab"):
                        diff = gr.Markdown(last_run_diff(state.workspace), elem_id="diff")
                        undo = gr.Button("Undo last run", size="sm", elem_id="undo")
                        undo_message = gr.Markdown("", elem_id="undo-message")

            with gr.Tab("Model", id="model"):
                with gr.Row():
                    with gr.Column(scale=3):
                        model_info = gr.Markdown(
                            model_markdown(state.host, state.model_reason), elem_id="model-info"
                        )
                        reply_stats = gr.Markdown(last_reply_markdown(state.host), elem_id="reply-stats")
                    with gr.Column(scale=2):
                        gauges = gr.HTML(gauges_html(), elem_id="gauges")
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

        # ---------- the crew run ----------
        def run(
            message: str, history: list[dict[str, Any]] | None, request: gr.Request
        ) -> Iterator[tuple[Any, ...]]:
            history = list(history or [])
            box: Any = ""  # the request box is cleared once; what is typed during the run stays
            for view in state.session.run(message, owner=request.session_hash or ""):
                lines, rows, source = _sidebar_outputs(view)
                yield history + view.messages, box, lines, rows, source, [vars(c) for c in view.context]
                box = gr.skip()

        run_outputs = [chat, request, timeline, context, context_source, hits]
        run_args: dict[str, Any] = {"concurrency_id": MODEL_GROUP, "concurrency_limit": 1}
        submitted = request.submit(run, [request, chat], run_outputs, api_name="run", **run_args)
        clicked = send.click(run, [request, chat], run_outputs, api_visibility="private", **run_args)
        for event in (submitted, clicked):
            event.then(
                files_and_diff,
                None,
                [explorer, diff],
                api_visibility="private",
            )

        def stop_run(request: gr.Request) -> None:
            state.session.stop(request.session_hash or "")

        stop.click(stop_run, None, None, api_name="stop", concurrency_limit=None)

        # ---------- files ----------
        def show_file(selected: Any) -> tuple[Any, Any, Any, Any]:
            rel = relative_in(state.workspace, selected)
            if rel is None:  # a refresh clears the tree's selection: the open file stays open
                return gr.skip(), gr.skip(), gr.skip(), gr.skip()
            content, message, what = open_file(state.workspace, rel)
            code = gr.Code(value=content, language=language_for(rel), interactive=what.editable)
            return code, rel, message, what

        explorer.change(
            show_file, explorer, [editor, open_path, file_message, opened], api_visibility="private"
        )
        refresh.click(fresh_tree, None, explorer, api_visibility="private")
        save.click(
            lambda rel, text, what: save_file(state.workspace, rel, text, what),
            [open_path, editor, opened],
            [file_message, opened],
            api_name="save_file",
        ).then(fresh_tree, None, explorer, api_visibility="private")

        def open_hit(rows: list[dict[str, Any]], evt: gr.SelectData) -> tuple[Any, Any, Any, Any, Any]:
            row = evt.index[0] if isinstance(evt.index, (list, tuple)) else evt.index
            if not rows or row is None or row >= len(rows):
                return gr.skip(), gr.skip(), gr.skip(), gr.skip(), gr.skip()
            hit = rows[row]
            editor_update, rel, _, what = show_file(hit["path"])
            return (
                editor_update,
                rel,
                f"`{rel}` lines {hit['start_line']}-{hit['end_line']}",
                what,
                hit["start_line"],
            )

        line = gr.Number(visible=False)
        context.select(
            open_hit, hits, [editor, open_path, file_message, opened, line], api_visibility="private"
        ).then(None, line, None, js=SCROLL_TO_LINE_JS)

        def undo_run(request: gr.Request) -> tuple[str, str, Any]:
            message = undo_last_run(state.workspace)
            return message, last_run_diff(state.workspace), fresh_tree(request)

        undo.click(
            undo_run, None, [undo_message, diff, explorer], api_name="undo", concurrency_id=MODEL_GROUP
        )

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
        )  # fmt: skip

        # ---------- live status ----------
        status_timer = gr.Timer(1.0)
        status_timer.tick(lambda: _status_html(state), None, status, api_visibility="private")
        model_timer = gr.Timer(2.0)
        model_timer.tick(
            lambda: (
                model_markdown(state.host, state.model_reason),
                gauges_html(),
                last_reply_markdown(state.host),
            ),
            None,
            [model_info, gauges, reply_stats],
            api_visibility="private",
        )
    return page


def launch_kwargs() -> dict[str, Any]:
    return {"theme": offline_theme(), "css": SIDEBAR_CSS, "footer_links": []}
