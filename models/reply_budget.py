"""How many tokens one reply may take: from what the model can do and the room its context leaves.

A model too small to code (SmolLM2-135M) either stops early or repeats itself until any cap, so
its caps stay short. A model that codes (Qwen2.5-Coder 0.5B and up) needs room for a whole
function or file; a reply cut off at the cap is lost work, while a degenerate one ends on the
engine's repetition stop, not on the cap.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass
from typing import Any

CODING_PARAMETERS = 300_000_000  # the 0.5B coder has 494 M; the 135M has 135 M


@dataclass(frozen=True)
class ReplyBudget:
    answer: int  # one reply carrying a whole function in a Markdown code block
    tool_call: int  # a coder turn: a write_file call carrying a whole file
    plan: int
    review: int


def reply_budget(parameters: int, n_ctx: int) -> ReplyBudget:
    if parameters < CODING_PARAMETERS:
        budget = ReplyBudget(answer=320, tool_call=700, plan=200, review=160)
    else:
        budget = ReplyBudget(answer=1024, tool_call=2048, plan=384, review=384)
    # A reply never takes more than half the context: the prompt (request, files, feedback) needs
    # the other half.
    half = max(128, n_ctx // 2)
    return ReplyBudget(*(min(cap, half) for cap in astuple(budget)))


def reply_budget_for(info: Any, n_ctx: int) -> ReplyBudget:
    """The budget for a loaded model's GGUF info (None: treat it as a small model)."""
    return reply_budget(int(getattr(info, "parameter_count", 0) or 0), n_ctx)
