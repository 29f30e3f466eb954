"""Rule expects_output: a program asked to print that prints nothing fails."""

from __future__ import annotations

from agents.request import RequestFacts
from agents.rules.rule import Stage, rule


@rule(
    "expects_output",
    Stage.CHECKS,
    reason="a program asked to print that prints nothing fails",
    evidence="tests/test_crew_tools.py",
)
def expects_output(facts: RequestFacts, targets: list[str]) -> bool:
    """Whether the run of the files written must print: output is asked of the one program
    written; with several files, a helper module is silent."""
    return facts.output and len(targets) == 1
