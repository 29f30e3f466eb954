"""The run's time budget: after it no new round starts, the chat says so, and the run ends as after
its last round (issue 55: budget the run in seconds, shown to the user, not in rounds)."""

from pathlib import Path

from agents.events import AgentStarted, RunStarted
from tests.crew_script import checks, crew, events, files, notices

WRONG = files(("halve.py", "def halve(x):\n    return x / 3\n"))
CHECKS = checks("assert halve(4) == 2")
REQUEST = "Write halve(x) in halve.py: half of x."


def _coder_rounds(bus: object) -> list[int]:
    return sorted({e.round for e in events(bus, AgentStarted) if e.agent == "coder"})


def test_no_round_starts_once_the_time_is_spent(tmp_path: Path) -> None:
    summary, bus, _ = crew(
        tmp_path, REQUEST, coder=[WRONG] * 20, reviewer=[CHECKS] * 20, rounds=3, time_budget_s=0.001
    )
    assert _coder_rounds(bus) == [1] and summary.rounds_used == 1
    assert any("time is spent" in n and "no round 2" in n for n in notices(bus))
    assert summary.message.startswith("The run's time was spent after 1 round(s)")
    [started] = events(bus, RunStarted)
    assert started.budget_s == 0.001


def test_without_a_budget_the_rounds_bound_the_run(tmp_path: Path) -> None:
    summary, bus, _ = crew(tmp_path, REQUEST, coder=[WRONG] * 20, reviewer=[CHECKS] * 20, rounds=3)
    # Three rounds, and the plain try a run adds after sampled ones failed.
    assert _coder_rounds(bus)[:3] == [1, 2, 3] and summary.rounds_used >= 3
    assert not any("time is spent" in n for n in notices(bus))
    assert summary.message.startswith(f"Rounds used up ({summary.rounds_used})")
