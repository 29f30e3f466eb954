"""Rule worse_never_kept: a round that leaves a problem the project did not have ranks below the
project as it was."""

from __future__ import annotations

from agents.rules.rule import Stage, rule
from agents.run.versions import Version


@rule(
    "worse_never_kept",
    Stage.ROUNDS,
    reason=(
        "a round that leaves a problem the project did not have (a file that does not parse or import, an"
        " unbound name, an entry point that no longer starts) ranks below the project as it was"
    ),
    evidence="tests/test_worse_never_kept.py",
)
def worse_rounds(versions: list[Version]) -> tuple[str, ...]:
    """Each round that left something broken the project had whole, and what, for the user."""
    seen: dict[int, str] = {}
    for v in versions:
        if v.damage and v.round not in seen:
            said = list(dict.fromkeys(plainly(line) for line in v.damage))
            more = f", and {len(said) - 4} more" if len(said) > 4 else ""
            seen[v.round] = f"round {v.round}: {', '.join(said[:4])}{more}"
    return tuple(seen.values())


def plainly(problem: str) -> str:
    """A problem as the user reads it: what broke, without the advice to the coder."""
    if " is not valid Python (" in problem:
        return problem.partition(" (")[0]
    head, _, rest = problem.partition(": ")
    if head.endswith((" does not import", " does not start")):
        return f"{head} ({rest.split(':')[0]})"
    return head.rstrip(".")
