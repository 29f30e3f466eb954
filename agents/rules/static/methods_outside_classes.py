"""Rule methods_outside_classes: a method written at the top level is sent back."""

from __future__ import annotations

from agents.rules.rule import Stage, rule
from agents.rules.static.request_checks import methods_outside_classes as _methods_outside_classes
from agents.rules.static.scan import StaticScan


@rule(
    "methods_outside_classes",
    Stage.STATIC,
    reason="a method written at the top level is sent back",
    evidence="bench/results/2026-11-26-crew-1.5b-class-checks",
    per_file=True,
)
def methods_outside_classes(scan: StaticScan, rel: str) -> list[str]:
    before = set(_methods_outside_classes(scan.originals.get(rel) or ""))
    problems = []
    for name, owner in _methods_outside_classes(scan.sources[rel]).items():
        if name not in before:
            place = f"class {owner}" if owner else "its class"
            problems.append(
                f"In {rel}, {name}(self, ...) is written at the top level of the file: as a"
                f" method it belongs inside {place}, indented under it."
            )
    return problems
