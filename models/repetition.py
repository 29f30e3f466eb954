"""Spot a reply that has fallen into a loop: its tail is one short piece of text repeated.

Small models at temperature 0 sometimes repeat a line or a phrase until the token cap; every token
after the third repeat is wasted time. Exact repeats only: code that is merely regular (asserts
with different values, similar lines) never matches.
"""

from __future__ import annotations

MIN_REPEATS = 4
MIN_SPAN = 320  # characters the repeats must cover together
# The longest repeated piece looked for: a whole paragraph. In the IDE the 1.5B repeated a
# 279-character paragraph to its token cap in one of four candidates, and the batch waited 422 s.
MAX_UNIT = 800


def loop_start(text: str) -> int | None:
    """Where the looping tail begins (after the first copy of the unit), or None if it does not loop."""
    if len(text) < MIN_SPAN:
        return None
    for unit in range(1, min(MAX_UNIT, len(text) // MIN_REPEATS) + 1):
        repeats = max(MIN_REPEATS, -(-MIN_SPAN // unit))
        span = unit * repeats
        if span > len(text):
            continue
        if text[-1] != text[-1 - unit]:  # cheap reject before building the repeats
            continue
        tail = text[-span:]
        if tail == tail[:unit] * repeats:
            return len(text) - span + unit
    return None
