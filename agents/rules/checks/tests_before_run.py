"""Rule tests_before_run: the project's tests run once before the run: failures that were there
before and the request is not about do not keep the run going."""

from __future__ import annotations

from agents.rules.rule import Stage, rule
from agents.run.crew_tools import ToolContext, run_tests
from agents.run.tests_before import TestResults
from tools.sandbox import RunResult


@rule(
    "tests_before_run",
    Stage.CHECKS,
    reason=(
        "the project's tests run once before the run: failures that were there before and the request is "
        "not about do not keep the run going"
    ),
    evidence="tests/test_tests_before_run.py",
)
def tests_before_run(context: ToolContext) -> tuple[RunResult, TestResults | None]:
    """The project's tests, run before round 1: the run, and each test's outcome (None: unread)."""
    before = run_tests(context, None).result
    return before, TestResults.parse(before.stdout_tail, before.duration_s)
