"""`--profile NAME` on the crew benchmarks: the crew's settings from a profile (agents/crew_profile.py).

The profile gives rounds, retry, temperatures and rule switches; `--rounds` given as well wins,
and `--without` / `--with` add to the profile's switches.
"""

from __future__ import annotations

import argparse

from agents.crew_profile import CrewProfile, list_profiles, load_profile
from agents.rules.registry import RuleSwitches
from agents.run.runner import CrewSettings


def add_profile_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profile",
        default=None,
        help=f"crew profile: profiles/NAME.json or a .json path ({', '.join(list_profiles()) or 'none yet'})",
    )


def profile_defaults(parser: argparse.ArgumentParser, argv: list[str] | None) -> CrewProfile | None:
    """Before the real parse: the profile's rounds become --rounds' default."""
    known, _ = parser.parse_known_args(argv)
    if not known.profile:
        return None
    try:
        profile = load_profile(known.profile)
    except ValueError as exc:
        parser.error(str(exc))
    parser.set_defaults(rounds=profile.rounds)
    return profile


def crew_settings(
    profile: CrewProfile | None, rules: RuleSwitches
) -> tuple[CrewSettings | None, RuleSwitches]:
    """The profile's settings and its switches joined with --without / --with (None: no profile)."""
    if profile is None:
        return None, rules
    base = profile.rules()
    joined = RuleSwitches(
        (base.disabled - rules.enabled) | rules.disabled, (base.enabled - rules.disabled) | rules.enabled
    )
    return profile.settings(), joined
