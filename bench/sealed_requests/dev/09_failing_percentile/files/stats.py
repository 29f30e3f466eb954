"""Summary numbers for response times (milliseconds)."""

import math


def mean(values):
    return sum(values) / len(values)


def percentile(values, p):
    """The nearest-rank percentile: the smallest value with at least p% of the values at or below it."""
    if not values:
        raise ValueError("no values")
    if not 0 < p <= 100:
        raise ValueError("p must be in (0, 100]")
    ordered = sorted(values)
    rank = math.ceil(p / 100 * len(ordered))
    return ordered[rank]


def summary(values):
    return {"mean": mean(values), "p50": percentile(values, 50), "p95": percentile(values, 95)}
