"""Durations like '1h30m', '45m', '2h', '90s' or '1h5m30s', in seconds."""

import re

UNITS = {"h": 3600, "m": 60, "s": 1}
PART = re.compile(r"(\d+)([hms])")


def parse_duration(text):
    text = text.strip().lower()
    if not text or PART.sub("", text):
        raise ValueError(f"not a duration: {text!r}")
    total = 0
    for number, unit in PART.findall(text):
        total += int(number) * UNITS[unit]
    return total


def format_duration(seconds):
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    parts = [f"{hours}h" if hours else "", f"{minutes}m" if minutes else "", f"{seconds}s" if seconds else ""]
    return "".join(parts) or "0s"
