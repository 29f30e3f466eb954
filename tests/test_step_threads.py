"""The thread count of batch decode steps (models.step_threads): each choice tried for a few
steps, the faster per row kept, and tried again later, so a change of load changes the choice."""

from __future__ import annotations

from models.step_threads import RETRY_EVERY, TRIAL_STEPS, StepThreads


def _run(threads: StepThreads, set_to: list[int], cost: dict[int, float], steps: int, rows: int = 4) -> None:
    for _ in range(steps):
        threads.before()
        threads.after(cost[set_to[-1]] * rows, rows)


def test_the_faster_count_is_kept_after_the_trial() -> None:
    set_to: list[int] = []
    threads = StepThreads(set_to.append, (2, 1))
    _run(threads, set_to, {2: 0.05, 1: 0.08}, 2 * (TRIAL_STEPS + 1) + 10)
    assert threads.chosen == 2 and set_to == [2, 1, 2]  # one change per choice, none per step

    set_to.clear()
    threads = StepThreads(set_to.append, (2, 1))
    _run(threads, set_to, {2: 0.3, 1: 0.08}, 2 * (TRIAL_STEPS + 1) + 10)  # cores busy elsewhere
    assert threads.chosen == 1 and set_to == [2, 1]


def test_a_later_trial_follows_a_change_of_load() -> None:
    set_to: list[int] = []
    threads = StepThreads(set_to.append, (2, 1))
    trial = 2 * (TRIAL_STEPS + 1)
    _run(threads, set_to, {2: 0.05, 1: 0.08}, trial + RETRY_EVERY)
    assert threads.chosen == 2
    _run(threads, set_to, {2: 0.4, 1: 0.08}, trial + 1)  # another program took a core
    assert threads.chosen == 1 and set_to[-1] == 1


def test_times_are_compared_per_row_and_one_choice_is_never_switched() -> None:
    set_to: list[int] = []
    threads = StepThreads(set_to.append, (2, 1))
    for _ in range(2 * (TRIAL_STEPS + 1)):
        threads.before()
        rows = 4 if set_to[-1] == 2 else 1  # sequences ended during the trial
        threads.after({2: 0.2, 1: 0.08}[set_to[-1]], rows)
    assert threads.chosen == 2  # 0.05 a row against 0.08

    set_to.clear()
    single = StepThreads(set_to.append, (1, 1))
    _run(single, set_to, {1: 0.1}, RETRY_EVERY + 5)
    assert set_to == [1] and single.chosen == 1
