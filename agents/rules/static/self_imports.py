"""Rule self_imports: a module that imports itself is sent back."""

from __future__ import annotations

from agents.rules.rounds.round_damage import self_import_problems
from agents.rules.rule import Stage, rule
from agents.rules.static.scan import StaticScan, sources_before


@rule(
    "self_imports",
    Stage.STATIC,
    reason="a module that imports itself is sent back",
    evidence="tests/test_self_imports.py",
)
def self_imports(scan: StaticScan) -> list[str]:
    """A module written that imports itself (the 0.5B's report.py, asked to be called from main.py)."""
    written = {rel: scan.sources[rel] for rel in scan.written if rel in scan.sources}
    return self_import_problems(sources_before(scan), written)
