"""Rule fix_or_leave: where the project's failing tests judge the request, a round that makes none
of them pass is not kept; when no round did, the project stays as it was.

Seen in the IDE (1.5B, "The test test_remove_uses_the_listed_number fails. Fix it."): no round fixed
the test, and keep-best kept round 1 for passing more of its own checks, so the user's remove() was
left with a bounds check nobody asked for and the test failing as before.
"""

from __future__ import annotations

from agents.rules.rule import Stage, rule
from agents.run.versions import Version


@rule(
    "fix_or_leave",
    Stage.ROUNDS,
    reason=(
        "where failing tests judge the request, a round that makes none of them pass is not kept: the project"
        " stays as it was"
    ),
    evidence="tests/test_fix_or_leave.py",
)
def fixed_nothing(version: Version, judged: frozenset[str]) -> bool:
    """The round left every test the request is about failing (False where that is not known)."""
    return bool(judged) and version.still_failing is not None and judged <= version.still_failing
