"""Settings → Crew profile: a saved profile's rule switches and retries reach the page's runs, the
user's rounds, temperature and seed stay, and a name profiles/ does not list is refused (never
read as a path). No model: the crew is built by a stand-in that keeps its settings."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from agents.crew_profile import CrewProfile, list_profiles, save_profile
from agents.events import EventBus, Notice
from agents.rules.registry import rule
from gui.crew_profile_choice import DEFAULT_LABEL, crew_settings, profile_choices, profile_problem
from gui.user_settings import UserSettings


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    save_profile(
        CrewProfile("lean", model="m.gguf", retry="fix", retry_temperature=0.3, disabled=("keep_best",)),
        tmp_path,
    )
    (tmp_path / "broken.json").write_text("{not json")
    return tmp_path


def test_the_chosen_profile_switches_rules_and_retries_and_keeps_the_users_sampling(folder: Path) -> None:
    user = UserSettings(rounds=5, temperature=0.4, seed=9, profile="lean")
    crew, level, note = crew_settings(user, folder)
    assert not crew.rules.on(rule("keep_best")) and crew.rules.on(rule("second_opinion"))
    assert (crew.retry, crew.retry_temperature) == ("fix", 0.3)
    assert (crew.rounds, crew.temperature, crew.seed) == (5, 0.4, 9)  # the Settings tab's, not the profile's
    assert level == "info" and "lean" in note and "keep_best" in note


def test_the_default_is_the_hand_tuned_crew_and_says_nothing(folder: Path) -> None:
    crew, level, note = crew_settings(UserSettings(rounds=2, run_minutes=1.5), folder)
    assert crew.rules.on(rule("keep_best")) and crew.retry == "fresh" and crew.rounds == 2
    assert crew.time_budget_s == 90.0  # the Settings tab's time for a run, in seconds
    assert (level, note) == ("", "")


@pytest.mark.parametrize("name", ["gone", "broken", "../lean", "lean.json"])
def test_a_profile_that_cannot_run_falls_back_to_the_default_and_warns(folder: Path, name: str) -> None:
    crew, level, note = crew_settings(UserSettings(profile=name), folder)
    assert crew.rules.on(rule("keep_best")) and crew.retry == "fresh"
    assert level == "warning" and name in note and "hand-tuned" in note
    assert profile_problem(name, folder)


def test_the_choices_offer_the_default_and_readable_profiles_only(folder: Path) -> None:
    assert profile_choices(folder) == [(DEFAULT_LABEL, ""), ("lean (chosen for m.gguf)", "lean")]
    assert profile_problem("", folder) == "" and profile_problem("lean", folder) == ""


def test_saving_a_name_profiles_does_not_list_changes_nothing(tmp_path: Path) -> None:
    from gui.settings_tab import save_user_settings

    shipped = list_profiles()
    assert shipped, "the repository ships the evolved 0.5B profile"
    path = tmp_path / "settings.json"
    state = SimpleNamespace(settings=UserSettings(rounds=3), workspace=tmp_path)
    state.save = lambda: (
        f"Saved to {path}" if path.write_text(json.dumps({"profile": state.settings.profile})) else ""
    )
    message = save_user_settings(state, "", 7, 0.0, 1, profile="../../etc/passwd.json")  # type: ignore[arg-type]
    assert "Nothing saved" in message and not path.exists() and state.settings.rounds == 3
    assert "Saved" in save_user_settings(state, "", 2, 0.0, 1, profile=shipped[0])  # type: ignore[arg-type]
    assert json.loads(path.read_text())["profile"] == shipped[0] and state.settings.rounds == 2


def test_a_hand_edited_path_in_the_settings_file_is_not_a_profile() -> None:
    assert UserSettings(profile="/etc/x.json").validated().profile == ""
    assert UserSettings(profile="..\\x").validated().profile == ""
    assert UserSettings(profile="lean").validated().profile == "lean"


def test_a_page_run_uses_the_saved_profile_and_says_which(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import agents.crew_factory
    from gui.crew_session import CrewSession, Ticket

    built: dict[str, Any] = {}

    def build_crew(engine: Any, workspace: Path, bus: EventBus, settings: Any, **_: Any) -> Any:
        built["settings"] = settings
        return SimpleNamespace(run=lambda request, fresh=False: SimpleNamespace(run_id="", files_changed=[]))

    monkeypatch.setattr(agents.crew_factory, "build_crew", build_crew)
    name = list_profiles()[0]
    index = SimpleNamespace(open=lambda: None)
    session = CrewSession(
        SimpleNamespace(),
        lambda: UserSettings(profile=name),
        lambda: tmp_path,
        lambda: index,  # type: ignore[arg-type]
    )
    bus = EventBus()
    seen: list[Any] = []
    bus.subscribe(seen.append)
    session._crew_thread(object(), Ticket("tab"), bus)
    disabled = built["settings"].rules.disabled
    assert disabled and all(not built["settings"].rules.on(rule(name)) for name in disabled)
    notices = [e for e in seen if isinstance(e, Notice)]
    assert any(n.level == "info" and name in n.message for n in notices)
