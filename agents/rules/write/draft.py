"""The draft of one file write, as each rule of the write stage receives it.

A rule raises ValueError to refuse the write (its text is told to the coder), sets
`draft.as_it_was` when nothing needs writing, or changes `draft.content` and says how in
`draft.notes`. The write tool runs the rules switched on, in the stage's order
(agents/rules/write/__init__.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from agents.request import RequestFacts
from agents.source.definition_merge import Merge


@dataclass
class WriteDraft:
    path: str
    content: str
    original: str | None  # the file before the run (None: new, unreadable or too large)
    facts: RequestFacts
    read_current: Callable[[], str | None]  # the file as it is now
    merged: Merge | None = None
    as_it_was: bool = False  # the answer repeats the file: nothing to write
    notes: list[str] = field(default_factory=list)
    sources: Callable[[], dict[str, str]] = dict  # the project's Python files now, by path

    @property
    def python(self) -> bool:
        return self.path.endswith(".py")
