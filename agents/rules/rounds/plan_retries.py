"""Rule plan_retries: the planner plans each retry."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.llm.roles import expected_files
from agents.rules.rule import Stage, rule
from agents.run.state import RunState


@rule(
    "plan_retries",
    Stage.ROUNDS,
    reason="the planner plans each retry (off: it added time and nothing measured)",
    evidence="bench/results/2026-11-25-crew-1.5b-retries-without-planner",
    default=False,
)
def plan_retries(state: RunState, plan: Callable[[RunState], Any]) -> None:
    """A retry's plan, and the files it expects (never before the first try: planning first cost
    real coders time and accuracy)."""
    state.plan = plan(state)
    state.allowed_files = expected_files(state.facts.files, state.plan) or state.allowed_files
