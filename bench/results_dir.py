"""Where a benchmark keeps a run: bench/results/YYYY-MM-DD-topic, so a listing is in time order."""

from __future__ import annotations

import datetime
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def dated(topic: str, day: datetime.date | None = None) -> Path:
    """The folder for today's (or `day`'s) run of `topic`."""
    return RESULTS / f"{(day or datetime.date.today()).isoformat()}-{topic}"
