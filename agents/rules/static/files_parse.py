"""Rule files_parse: a Python file written must parse: Markdown in a .py is sent back."""

from __future__ import annotations

from agents.rules.rounds.round_damage import parse_problems
from agents.rules.rule import Stage, rule
from agents.rules.static.scan import StaticScan, sources_before


@rule(
    "files_parse",
    Stage.STATIC,
    reason="a Python file written must parse: Markdown in a .py is sent back",
    evidence="tests/test_files_parse.py",
)
def files_parse(scan: StaticScan) -> list[str]:
    """Each Python file written that no longer parses (the 0.5B wrote the README's Markdown into a
    new database.py, and pytest, which never imported it, passed)."""
    written = {rel: scan.sources[rel] for rel in scan.written if rel in scan.sources}
    return parse_problems(sources_before(scan), written)
