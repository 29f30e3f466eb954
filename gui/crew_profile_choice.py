"""The crew profile a run from the page uses (Settings → Crew profile): a saved configuration under
profiles/ (agents/crew_profile.py), e.g. the one `bench.evolve` found for a model. A profile sets
the crew's rule switches and retries; rounds, temperature and seed stay as the Settings tab has
them, since the user sees and sets those there. Only a name profiles/ lists is accepted: the page
never reads a path it was sent."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agents.crew_profile import CrewProfile
    from agents.run.runner import CrewSettings
    from gui.user_settings import UserSettings

DEFAULT_LABEL = "Hand-tuned (the default)"


def _folder(folder: Path | None) -> Path:
    from agents.crew_profile import PROFILES_DIR

    return folder or PROFILES_DIR


def profile_choices(folder: Path | None = None) -> list[tuple[str, str]]:
    """(label, name) for the Settings tab: the default first, then every readable profile."""
    from agents.crew_profile import list_profiles, load_profile

    folder, choices = _folder(folder), [(DEFAULT_LABEL, "")]
    for name in list_profiles(folder):
        try:
            profile = load_profile(name, folder)
        except ValueError:
            continue  # a broken file is not offered; crew_settings says why if it was chosen
        choices.append((f"{name} (chosen for {profile.model})" if profile.model else name, name))
    return choices


def _chosen(name: str, folder: Path | None) -> tuple[CrewProfile | None, str]:
    """The profile `name` names, read once, or why it cannot be chosen."""
    from agents.crew_profile import list_profiles, load_profile

    folder = _folder(folder)
    names = list_profiles(folder)
    if name not in names:
        return None, f"No crew profile {name!r}; profiles: {', '.join(names) or 'none'}."
    try:
        return load_profile(name, folder), ""
    except ValueError as exc:
        return None, f"Crew profile {name!r} cannot be read: {exc}."


def profile_problem(name: str, folder: Path | None = None) -> str:
    """Why `name` cannot be chosen ('' it can: the default, or a readable profile profiles/ lists)."""
    return _chosen(name, folder)[1] if name else ""


def crew_settings(settings: UserSettings, folder: Path | None = None) -> tuple[CrewSettings, str, str]:
    """The crew's settings for one run, and a notice for the run's chat (level, line): which
    profile ran ("info"), or why the chosen one could not and the hand-tuned crew ran instead
    ("warning"); no line for the default."""
    from agents.run.runner import CrewSettings
    from gui.user_settings import web_docs_for

    base = CrewSettings(
        rounds=settings.rounds,
        time_budget_s=60.0 * settings.run_minutes,
        temperature=settings.temperature,
        seed=settings.seed,
        web_docs=web_docs_for(settings),
    )
    if not settings.profile:
        return base, "", ""
    profile, problem = _chosen(settings.profile, folder)
    if profile is None:
        return base, "warning", f"{problem} This run uses the hand-tuned crew."
    crew = replace(
        base, retry=profile.retry, retry_temperature=profile.retry_temperature, rules=profile.rules()
    )
    off = f"off: {', '.join(profile.disabled)}" if profile.disabled else "none off"
    on = f"; on: {', '.join(profile.enabled)}" if profile.enabled else ""
    return crew, "info", f"Crew profile {profile.name} (rules {off}{on})."
