"""The Settings tab: the workspace folder, rounds, temperature, seed, the web documentation
lookup (off by default), review before write and the crew profile, saved to the user's settings
file. Another workspace is checked as any
client's request would be (IdeState)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

import gradio as gr

from gui.crew_chat_wiring import CrewChat
from gui.crew_profile_choice import profile_choices, profile_problem
from gui.disk_refresh import DiskRefresh
from gui.ide_state import IdeState
from gui.page_layout import CodeTab, Sidebar, sidebar_fields
from tools.web_docs import SOURCES


@dataclass
class SettingsTab:
    workspace_box: Any
    rounds: Any
    temperature: Any
    seed: Any
    web_docs: Any
    review: Any
    profile: Any
    save: Any
    message: Any
    minutes: Any


def build_settings_tab(state: IdeState) -> SettingsTab:
    workspace_box = gr.Textbox(str(state.workspace), label="Workspace folder", elem_id="workspace")
    rounds = gr.Slider(1, 10, value=state.settings.rounds, step=1, label="Coder/reviewer rounds")
    minutes = gr.Number(
        state.settings.run_minutes,
        label="Time for a run (minutes)",
        info="No new round starts after this; the round under way finishes. 0: the rounds alone.",
        minimum=0,
        maximum=240,
        elem_id="run-minutes",
    )
    temperature = gr.Slider(0.0, 1.5, value=state.settings.temperature, step=0.05, label="Temperature")
    seed = gr.Number(state.settings.seed, label="Seed", precision=0, elem_id="seed")
    hosts = ", ".join(urlparse(url).netloc for url in SOURCES.values())
    web_docs = gr.Checkbox(
        value=state.settings.web_docs,
        label=f"Look up documentation on the web ({hosts}) when the offline lookup has nothing",
        info="Off: nothing leaves this machine. On: each page is fetched once, capped, cached on disk, "
        "and shown in the sidebar.",
        elem_id="web-docs",
    )
    review = gr.Radio(
        [
            ("When a run reaches past the request or changes more than one existing file", "auto"),
            ("Always", "always"),
            ("Never: write at once (Undo takes a run back)", "never"),
        ],
        value=state.settings.review,
        label="Review before write",
        info="A held run's change waits in the Review tab, file by file and hunk by hunk;"
        " nothing reaches the project until you accept it.",
        elem_id="review-mode",
    )
    choices, chosen = _profiles_now(state)
    profile = gr.Dropdown(
        choices,
        value=chosen,
        label="Crew profile",
        info="A saved crew configuration (profiles/), e.g. one `bench.evolve` found for a model: its rule"
        " switches and retries. Rounds, temperature and seed stay as set above.",
        elem_id="crew-profile",
    )
    save = gr.Button("Save settings", elem_id="save-settings")
    message = gr.Markdown("", elem_id="settings-message")
    return SettingsTab(
        workspace_box, rounds, temperature, seed, web_docs, review, profile, save, message, minutes
    )


def _profiles_now(state: IdeState) -> tuple[list[tuple[str, str]], str]:
    choices = profile_choices()
    return choices, state.settings.profile if state.settings.profile in {name for _, name in choices} else ""


def settings_now(state: IdeState) -> tuple[Any, ...]:
    """The tab's fields as saved now. A page is built once, at launch: without this, a reloaded
    page showed the launch's values, and its next Save wrote them back over what had been saved
    since (another workspace, rounds, a profile)."""
    s = state.settings
    choices, chosen = _profiles_now(state)
    profile = gr.Dropdown(choices=choices, value=chosen)  # profiles saved since launch are offered too
    return str(state.workspace), s.rounds, s.temperature, s.seed, s.web_docs, s.review, profile, s.run_minutes


def save_user_settings(
    state: IdeState,
    folder: str,
    n_rounds: float,
    temp: float,
    seed_value: float,
    web_docs: bool = False,
    review: str | None = None,
    profile: str | None = None,
    minutes: float | None = None,
) -> str:
    problem = profile_problem(profile or "")
    moved = folder.strip() and folder.strip() != str(state.workspace)
    problem = problem or (state.workspace_refusal(folder.strip()) if moved else "")
    if problem:
        return f"{problem} Nothing saved."
    state.settings.profile = state.settings.profile if profile is None else profile
    state.settings.rounds, state.settings.temperature = int(n_rounds), float(temp)
    state.settings.seed, state.settings.web_docs = int(seed_value or 0), bool(web_docs)
    state.settings.review = review or state.settings.review
    state.settings.run_minutes = state.settings.run_minutes if minutes is None else float(minutes)
    message = ""
    if moved:
        message = state.change_workspace(folder.strip()) + " "
    state.settings.validated()
    return message + state.save()


def wire_settings_tab(
    page: gr.Blocks,
    state: IdeState,
    tab: SettingsTab,
    code: CodeTab,
    side: Sidebar,
    disk: DiskRefresh,
    chat: CrewChat,
) -> None:
    def save(
        folder: str,
        n_rounds: float,
        temp: float,
        seed_value: float,
        web_docs: bool,
        review: str | None = None,
        profile: str | None = None,
        minutes: float | None = None,
    ) -> str:
        return save_user_settings(
            state, folder, n_rounds, temp, seed_value, web_docs, review, profile, minutes
        )

    fields = [
        tab.workspace_box,
        *(tab.rounds, tab.temperature, tab.seed, tab.web_docs, tab.review, tab.profile, tab.minutes),
    ]
    page.load(lambda: settings_now(state), None, fields, api_visibility="private")
    # Another workspace: its files, its last run, its own conversation and its own sidebar (the
    # other workspace's tool calls and retrieved rows, which open by path, must not stay).
    sidebar = sidebar_fields(side, code)
    tab.save.click(
        save,
        fields,
        tab.message,
        api_name="save_settings",
    ).then(disk.files_and_diff, None, [code.explorer, code.last_run.diff], api_visibility="private").then(
        chat.load_chat, None, [code.chat.chat, code.chat.run_line, *sidebar], api_visibility="private"
    )
