"""Rule broken_files_shown: a project file the run broke (its imports or calls) is shown, and may be
written, in the next round."""

from __future__ import annotations

from agents.rules.rule import RuleSwitches, Stage, rule
from agents.rules.static.scan import StaticScan
from agents.rules.static.stage import files_broken


@rule(
    "broken_files_shown",
    Stage.PROMPT,
    reason=(
        "a project file the run broke (its imports or calls) is shown, and may be written, in the next round"
    ),
    evidence="bench/results/2026-11-28-ide-use-rename",
)
def broken_files_shown(scan: StaticScan, rules: RuleSwitches, allowed: list[str]) -> list[str]:
    """A rename "and every use" names one file; the files it broke are the rest of the work."""
    return [f for f in files_broken(scan, rules) if f not in allowed]
