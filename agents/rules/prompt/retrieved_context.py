"""Rule retrieved_context: code found by search is shown when no file is."""

from __future__ import annotations

from agents.rules.rule import Stage, rule
from agents.run.state import RunState


@rule(
    "retrieved_context",
    Stage.PROMPT,
    reason="code found by search is shown when no file is",
    evidence="bench/results/2026-11-25-crew-0.5b",
)
def retrieved_context(state: RunState) -> str:
    """What the workspace search found for the request (agents/context_retrieval.py)."""
    return state.context_text
