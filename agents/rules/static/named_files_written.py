"""Rule named_files_written: the files the request names must be written."""

from __future__ import annotations

from agents.rules.rule import Stage, rule
from agents.rules.static.scan import StaticScan


@rule(
    "named_files_written",
    Stage.STATIC,
    reason="the files the request names must be written",
    evidence="tests/test_crew_logic.py",
)
def named_files_written(scan: StaticScan) -> list[str]:
    """Only what the user named must exist: a file the planner added may rightly not be written."""
    missing = [f for f in scan.facts.files if not scan.exists(f)]
    return [f"The request names {', '.join(missing)}, which was not written."] if missing else []
