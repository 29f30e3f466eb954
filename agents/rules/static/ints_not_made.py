"""Rule ints_not_made: a function said to return 'an int' that never makes one."""

from __future__ import annotations

from agents.rules.rule import Stage, rule
from agents.rules.static.request_checks import ints_not_made as _ints_not_made
from agents.rules.static.scan import StaticScan


@rule(
    "ints_not_made",
    Stage.STATIC,
    reason="a function said to return 'an int' that never makes one",
    evidence="bench/results/2026-11-26-crew-1.5b-put-back",
)
def ints_not_made(scan: StaticScan) -> list[str]:
    return [
        f"The request says {name}() returns an int, but nothing in {name}() makes one: a value"
        " read from a file or given as text stays text until int() converts it."
        for name in _ints_not_made(scan.facts, list(scan.sources.values()))
    ]
