"""The IDE page: files and editor, the crew chat, the live sidebar, the model panel, settings.

Assembly only: each part is laid out by its own builder (page_layout.py for the header, the
sidebar and the Code tab; model_tab.py; settings_tab.py) and wired by its own module
(crew_chat_wiring.py, editor_wiring.py, last_run_wiring.py, and the tabs' wire_* functions);
what each part shows comes from run_view, sidebar_html, model_panel_data and workspace_actions.
"""

from __future__ import annotations

from typing import Any

import gradio as gr

from gui.crew_chat_wiring import WATCH_S, CrewChat, wire_crew_chat
from gui.disk_refresh import DiskRefresh
from gui.editor_guard import KEYS_JS
from gui.editor_wiring import wire_editor
from gui.ide_state import IdeState
from gui.last_run_wiring import wire_last_run
from gui.model_tab import build_model_tab, wire_model_tab
from gui.page_layout import (
    CodeTab,
    Header,
    Sidebar,
    build_code_tab,
    build_header,
    build_sidebar,
    sidebar_fields,
)
from gui.review_tab import wire_review_tab
from gui.settings_tab import build_settings_tab, wire_settings_tab
from gui.sidebar_html import SIDEBAR_CSS
from gui.status_line import status_html

PAGE_CSS = """
.lc-unsaved { color: #d97706; font-weight: 600; white-space: nowrap; }
#unsaved { align-self: center; flex: 0 0 100px !important; min-width: 100px !important; }
#keys-hint, #run-line { font-size: 0.85em; color: #6b7280; }
#editor.lc-opening { opacity: 0.6; }  /* a file is being opened: typing waits */
/* The retrieved context's headers in the 360 px sidebar broke mid-word ("file:li / nes"). */
#context thead th, #context thead th * { white-space: nowrap; word-break: keep-all; overflow-wrap: normal; }
"""


def offline_theme() -> gr.themes.Base:
    """The default look with system fonts: the stock theme fetches fonts from Google."""
    return gr.themes.Default(
        font=["ui-sans-serif", "system-ui", "Segoe UI", "Roboto", "sans-serif"],
        font_mono=["ui-monospace", "SFMono-Regular", "Consolas", "monospace"],
    )


def build_ide_page(state: IdeState) -> gr.Blocks:
    with gr.Blocks(title="LocalCrew") as page:
        header = build_header(state)
        side = build_sidebar()
        with gr.Tabs():
            with gr.Tab("Code", id="code"), gr.Row(equal_height=False):
                code = build_code_tab(state)
            with gr.Tab("Model", id="model"):
                model = build_model_tab(state)
            with gr.Tab("Settings", id="settings"):
                settings = build_settings_tab(state)
        disk = DiskRefresh(state, code)
        chat = wire_crew_chat(page, state, code, side, disk)
        wire_last_run(page, state, code, disk)
        wire_review_tab(page, state, code.review, disk.then_refresh, disk.also_after_runs)
        wire_editor(state, code, side, disk)
        wire_model_tab(page, state, model)
        wire_settings_tab(page, state, settings, code, side, disk, chat)
        wire_live_status(state, header, code, side, chat)
    return page


def wire_live_status(state: IdeState, header: Header, code: CodeTab, side: Sidebar, chat: CrewChat) -> None:
    """The timers: another tab's run in this chat (and its sidebar), the status line, and the
    indexing buttons."""
    watched = [code.chat.chat, code.chat.run_line, *sidebar_fields(side, code)]
    watch_timer = gr.Timer(WATCH_S)
    watch_timer.tick(
        chat.watch, None, watched, api_visibility="private", show_progress="hidden", concurrency_limit=None
    )

    def status_now() -> tuple[str, Any, Any]:
        index = state.index
        stopped = not index.running and (index.cancelled or index.status.startswith("Code index unavailable"))
        return status_html(state), gr.Button(visible=index.running), gr.Button(visible=stopped)

    status_outputs = [header.status, header.index_cancel, header.index_again]
    status_timer = gr.Timer(1.0)
    status_timer.tick(status_now, None, status_outputs, api_visibility="private")
    header.index_cancel.click(lambda: state.index.cancel(), None, None, api_name="cancel_indexing").then(
        status_now, None, status_outputs, api_visibility="private"
    )
    header.index_again.click(lambda: state.index.restart(), None, None, api_name="index_again").then(
        status_now, None, status_outputs, api_visibility="private"
    )


def launch_kwargs() -> dict[str, Any]:
    return {"theme": offline_theme(), "css": SIDEBAR_CSS + PAGE_CSS, "footer_links": [], "js": KEYS_JS}
