"""Rule read_before_assigned: a name read in its own first assignment (UnboundLocalError)."""

from __future__ import annotations

from agents.rules.rule import Stage, rule
from agents.rules.static.request_checks import read_before_assigned as _read_before_assigned
from agents.rules.static.scan import StaticScan


@rule(
    "read_before_assigned",
    Stage.STATIC,
    reason="a name read in its own first assignment (UnboundLocalError)",
    evidence="tests/test_request_checks.py",
    per_file=True,
)
def read_before_assigned(scan: StaticScan, rel: str) -> list[str]:
    before = set(_read_before_assigned(scan.originals.get(rel) or ""))
    problems = []
    for found in [f for f in _read_before_assigned(scan.sources[rel]) if f not in before]:
        function, name = found.split(": ")
        problems.append(
            f"In {rel}, {function}() assigns {name} from a value that reads {name}: that makes"
            f" {name} local to {function}(), so the read fails (UnboundLocalError). Name the"
            " result differently."
        )
    return problems
