"""Checks that ask a method for a value the request never says it gives.

"push(item) adds an item": the 0.5B's reviewer still wrote `assert stack.push(1) == 1`, and the
1.5B's `assert inventory.add('apple', 10)`. Right code returns None there, the check fails, and
the crew rewrote right code for it. Such a failed check becomes the plain call (the object still
changes, so the checks after it see the state they expect) when the method is called on an object
the checks made, the request names the method as a call (`push(`), and no clause of the request
about it says it returns or gives anything.
"""

from __future__ import annotations

import ast

from agents.request import RequestFacts
from agents.rules.checks.written_checks import bound_names, equality, failed_check
from agents.rules.rule import Stage, rule


def _method_call(test: ast.expr, bound: set[str]) -> ast.Call | None:
    """`obj.method(...)` on an object the checks made, as the whole test or its compared side."""
    sides = equality(test)
    call = sides[0] if sides else test
    if (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id in bound
    ):
        return call
    return None


@rule(
    "plain_calls",
    Stage.SETTLE,
    reason="a check wanting a value the request never promises runs as a plain call",
    evidence="tests/test_mutator_checks.py",
)
def unpromised(checks: str, failures: list[str], facts: RequestFacts) -> dict[str, str]:
    """{failed check: the plain call it becomes} for each failed check that wants a value from a
    method the request does not say gives one (None came back, or a bare `assert obj.m()`)."""
    bound = bound_names(checks)
    found = {}
    for failure in failures:
        text, error = failed_check(failure), failure.partition("  ->  ")[2]
        try:
            node = ast.parse(text).body[0]
        except (SyntaxError, ValueError, IndexError):
            continue
        if not isinstance(node, ast.Assert):
            continue
        call = _method_call(node.test, bound)
        if call is None or not isinstance(call.func, ast.Attribute):  # (narrows call.func's type)
            continue
        bare = call is node.test
        if not (bare or error.startswith("AssertionError: got None, expected")) or "to be raised" in error:
            continue
        if facts.promises_a_value(call.func.attr) is False:
            found[text] = ast.unparse(call)
    return found


def as_calls(checks: str, replaced: dict[str, str]) -> str:
    """The checks with each of these assert lines replaced by its plain call."""
    return "\n".join(replaced.get(line.strip(), line) for line in checks.splitlines())
