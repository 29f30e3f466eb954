"""Text in a run's output that differs from one run of the same code to the next, and says nothing
to the coder: how long a run took ("exit 1 in 0.27s", pytest's "1 failed in 0.12s", "after 10.00s")
and where Python put an object ("got <vector.Vector object at 0x7f8b33219ad0>" in a failed assert).
Retry prompts leave it out, so the same failure gives the same prompt; bench.replay matches
recorded calls without it (recordings of older commits still carry it)."""

from __future__ import annotations

import re

_TIMING = re.compile(r" (?:in|after) \d+(?:\.\d+)?s\b")
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+\b")


def without_run_noise(text: str) -> str:
    return _ADDRESS.sub("", _TIMING.sub("", text))
