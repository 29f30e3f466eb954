"""Rule undefined_calls: a function the request writes as a call that no file defines."""

from __future__ import annotations

from agents.rules.rule import Stage, rule
from agents.rules.static.request_checks import undefined_calls as _undefined_calls
from agents.rules.static.scan import StaticScan


@rule(
    "undefined_calls",
    Stage.STATIC,
    reason="a function the request writes as a call that no file defines",
    evidence="tests/test_request_checks.py",
)
def undefined_calls(scan: StaticScan) -> list[str]:
    """Asked to add done(item), the 0.5B changed remove() instead, and nothing said so."""
    undefined = _undefined_calls(scan.facts, list(scan.sources.values()))
    if not undefined:
        return []
    asked = ", ".join(f"{name}()" for name in undefined)
    return [f"The request asks for {asked}, which no file defines."]
