"""What each rule of the static-problems stage looks at: the files a turn wrote, as they were before
the run and as they are now. Each rule returns the problems it finds, as the coder will be told them;
a rule declared `per_file` looks at one file just written at a time."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agents.request import RequestFacts


@dataclass(frozen=True)
class StaticScan:
    facts: RequestFacts
    originals: dict[str, str | None]  # the files before the run's first write to them
    written: list[str]  # the files this turn wrote
    sources: dict[str, str]  # the project's Python files after the writes
    echoed: list[str]  # the files the answer left exactly as they were, when it changed nothing
    exists: Callable[[str], bool]


def sources_before(scan: StaticScan) -> dict[str, str]:
    before = dict(scan.sources)
    for rel, text in scan.originals.items():
        if rel.endswith(".py"):
            if text is None:
                before.pop(rel, None)
            else:
                before[rel] = text
    return before
