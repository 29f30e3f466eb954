"""The run's time budget (CrewSettings.time_budget_s): after it no new round starts; the round
under way finishes, and keep-best and put-back run as after the last round."""

from __future__ import annotations

import time

from agents.events import EventBus, Notice
from agents.run.state import RunState


def budget_spent(budget_s: float, state: RunState, bus: EventBus) -> bool:
    """Whether the run's time is spent, said in the chat when it is (0: no budget)."""
    spent = time.perf_counter() - state.started
    if not budget_s or spent < budget_s:
        return False
    state.out_of_time = True
    bus.emit(
        Notice(
            level="info",
            message=f"The run's time is spent ({spent:.0f} s of {budget_s:.0f} s, Settings → Time for a"
            f" run): no round {state.round_number + 1}. What the rounds so far left is judged below.",
        )
    )
    return True
