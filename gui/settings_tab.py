"""The Settings tab: the workspace folder, rounds, temperature and seed, saved to the user's
settings file. Another workspace is checked as any client's request would be (IdeState)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr

from gui.crew_chat_wiring import CrewChat
from gui.disk_refresh import DiskRefresh
from gui.ide_state import IdeState
from gui.page_layout import CodeTab


@dataclass
class SettingsTab:
    workspace_box: Any
    rounds: Any
    temperature: Any
    seed: Any
    save: Any
    message: Any


def build_settings_tab(state: IdeState) -> SettingsTab:
    workspace_box = gr.Textbox(str(state.workspace), label="Workspace folder", elem_id="workspace")
    rounds = gr.Slider(1, 10, value=state.settings.rounds, step=1, label="Coder/reviewer rounds")
    temperature = gr.Slider(0.0, 1.5, value=state.settings.temperature, step=0.05, label="Temperature")
    seed = gr.Number(state.settings.seed, label="Seed", precision=0)
    save = gr.Button("Save settings", elem_id="save-settings")
    message = gr.Markdown("", elem_id="settings-message")
    return SettingsTab(workspace_box, rounds, temperature, seed, save, message)


def save_user_settings(state: IdeState, folder: str, n_rounds: float, temp: float, seed_value: float) -> str:
    state.settings.rounds, state.settings.temperature = int(n_rounds), float(temp)
    state.settings.seed = int(seed_value or 0)
    message = ""
    if folder.strip() and folder.strip() != str(state.workspace):
        message = state.change_workspace(folder.strip()) + " "
    state.settings.validated()
    return message + state.save()


def wire_settings_tab(
    state: IdeState, tab: SettingsTab, code: CodeTab, disk: DiskRefresh, chat: CrewChat
) -> None:
    def save(folder: str, n_rounds: float, temp: float, seed_value: float) -> str:
        return save_user_settings(state, folder, n_rounds, temp, seed_value)

    # Another workspace: its files, its last run and its own conversation.
    tab.save.click(
        save,
        [tab.workspace_box, tab.rounds, tab.temperature, tab.seed],
        tab.message,
        api_name="save_settings",
    ).then(disk.files_and_diff, None, [code.explorer, code.last_run.diff], api_visibility="private").then(
        chat.load_chat, None, [code.chat.chat, code.chat.run_line], api_visibility="private"
    )
