"""Which thread count the steps of a batch decode run faster on, here and now.

llama.cpp runs a step of several tokens on its batch thread count. On a CPU each row's products are
work of their own, so on idle cores more threads are faster; on cores busy with other work the
threads wait on each other and fewer are faster, by a wide margin either way on 2 cores
(bench/results/2026-11-28-engine-batch-threads). Neither the machine nor its load is known ahead, so
the choices are tried in turns for a few steps, the fastest per row kept, and tried again now and
then as the load changes.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence

TRIAL_STEPS = 3  # timed steps per choice in a trial (each after one untimed step on it)
RETRY_EVERY = 96  # steps on the chosen count between trials


class StepThreads:
    """Call before() ahead of each step and after(seconds, rows) once it is done."""

    def __init__(self, set_threads: Callable[[int], None], choices: Sequence[int]) -> None:
        self.choices = list(dict.fromkeys(choices))
        self.chosen = self.choices[0]
        self._set = set_threads
        self._current: int | None = None
        self._step = 0  # within the current cycle: a trial of every choice, then RETRY_EVERY steps
        self._times: dict[int, list[float]] = {choice: [] for choice in self.choices}

    @property
    def _trial_length(self) -> int:
        return len(self.choices) * (TRIAL_STEPS + 1) if len(self.choices) > 1 else 0

    def _trying(self) -> tuple[int, bool] | None:
        """The choice this step tries and whether it is timed; None after the trial."""
        if self._step >= self._trial_length:
            return None
        index, offset = divmod(self._step, TRIAL_STEPS + 1)
        return self.choices[index], offset > 0

    def before(self) -> None:
        trying = self._trying()
        wanted = trying[0] if trying is not None else self.chosen
        if wanted != self._current:
            self._set(wanted)
            self._current = wanted

    def after(self, seconds: float, rows: int) -> None:
        trying = self._trying()
        if trying is not None and trying[1]:
            self._times[trying[0]].append(seconds / max(rows, 1))
        self._step += 1
        if self._step == self._trial_length and self._trial_length:
            timed = {choice: times for choice, times in self._times.items() if times}
            self.chosen = min(timed, key=lambda choice: statistics.median(timed[choice]))
            self._times = {choice: [] for choice in self.choices}
        if self._step >= self._trial_length + RETRY_EVERY:
            self._step = 0
