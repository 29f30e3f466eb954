"""What a retry is told (agents/rules/rounds/round_policy.feedback): the failed runs and checks, without how
long each run took, so the same failure gives the same prompt and a recorded run replays exactly."""

from __future__ import annotations

from agents.rules.rounds.round_policy import feedback
from agents.run.crew_tools import Check
from tools.sandbox import RunResult

PYTEST_OUT = "F.\n=== FAILURES ===\nassert 3 == 4\n=== 1 failed, 1 passed in {t}s ===\n"


def _failed(took: float) -> Check:
    out = PYTEST_OUT.format(t=f"{took / 2:.2f}")
    return Check(RunResult(["python", "-m", "pytest"], 1, out, "", took, None, True))


def test_the_same_failure_is_told_the_same_however_long_it_ran() -> None:
    fast, slow = feedback([], [_failed(0.27)], None, []), feedback([], [_failed(3.91)], None, [])
    assert fast == slow
    assert "exit 1" in fast and "assert 3 == 4" in fast and "1 failed, 1 passed" in fast
    assert "0.27" not in fast and "0.14s" not in fast


def test_a_time_limit_is_still_named() -> None:
    stopped = Check(RunResult(["python", "loop.py"], None, "", "", 10.0, "time", True))
    told = feedback([], [stopped], None, [])
    assert "time limit" in told and "10.00s" not in told


def test_an_objects_address_in_a_failed_check_is_left_out() -> None:
    failure = "assert v - V(3, 4) == V(-1, -2)  ->  AssertionError: got <vector.V object at 0x7f8b33219ad0>"
    told = feedback([], [], None, [failure])
    assert "<vector.V object>" in told and "0x7f8b" not in told
    assert told == feedback([], [], None, [failure.replace("0x7f8b33219ad0", "0x7f02a04a98d0")])
