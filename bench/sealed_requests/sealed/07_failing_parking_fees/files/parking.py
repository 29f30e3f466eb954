"""Parking fees in cents."""

import math

FREE_MINUTES = 30
PER_HOUR = 200
DAY_CAP = 1500


def fee(minutes):
    """Free for the first 30 minutes, then 2.00 for each full hour, at most 15.00 a day."""
    if minutes < 0:
        raise ValueError("negative time")
    if minutes <= FREE_MINUTES:
        return 0
    days, rest = divmod(minutes, 24 * 60)
    return days * DAY_CAP + min(DAY_CAP, math.floor(rest / 60) * PER_HOUR)
