"""One typed event stream for everything the GUI and the CLI show about a crew run.

Events are plain dataclasses; `to_dict()` gives the JSON line form (`--json-events`). An
EventBus fans each event out to subscribers (the CLI printer, the GUI queue, tests) and keeps
the run's history so a late subscriber can replay it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from tools.search_hit import Hit

PREVIEW_CHARS = 400


def preview(text: str, limit: int = PREVIEW_CHARS) -> str:
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class Event:
    t: float = field(default_factory=time.time, kw_only=True)

    @property
    def type(self) -> str:
        name = type(self).__name__
        return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, **asdict(self)}


@dataclass
class RunStarted(Event):
    run_id: str
    request: str
    workspace: str
    rounds: int
    budget_s: float = 0.0  # no round starts after this many seconds (0: none)


@dataclass
class AgentStarted(Event):
    agent: str  # planner | coder | reviewer
    round: int
    rounds: int = 0  # the run's rounds as they stand now (a plain try adds one); 0: not said


@dataclass
class AgentFinished(Event):
    agent: str
    round: int
    output: str
    duration_s: float


@dataclass
class TokenChunk(Event):
    agent: str
    text: str


@dataclass
class ToolCallStarted(Event):
    call_id: str
    agent: str
    name: str
    arguments: dict[str, Any]


@dataclass
class ToolCallFinished(Event):
    call_id: str
    agent: str
    name: str
    arguments: dict[str, Any]
    result: str
    duration_s: float


@dataclass
class ToolCallFailed(Event):
    call_id: str
    agent: str
    name: str
    arguments: dict[str, Any]
    error: str
    duration_s: float


@dataclass
class ContextRetrieved(Event):
    query: str
    source: str  # "index" | "text search" | "none"
    chunks: list[Hit]  # to_dict() gives them as dicts, for the JSON line form


@dataclass
class FileChanged(Event):
    path: str
    action: str  # created | modified | unchanged (written with the bytes it had) | deleted
    diff: str


@dataclass
class CheckRun(Event):
    command: str
    exit_code: int | None
    passed: bool
    limit_hit: str | None
    duration_s: float
    stdout_tail: str
    stderr_tail: str
    problem: str = ""  # why a run that exited 0 still failed, e.g. it printed nothing
    note: str = ""  # why a run that did not exit 0 still passed: it stopped at input()
    # What the program changed in the workspace (its sandbox copy applied back) and what was not
    # applied ("path: why"), so the page can say when a program's change did not land.
    applied: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


@dataclass
class ReviewVerdict(Event):
    round: int
    approved: bool
    fixes: list[str]


@dataclass
class Notice(Event):
    level: str  # info | warning | error
    message: str


@dataclass
class RunHeld(Notice):
    """The run's change was staged for review after it finished: it is not on disk, so the Undo
    the finished run's message offers would take back the run before it."""


@dataclass
class ContextUsed(Event):
    """One model call's share of the context window (agents/llm/context_budget.py fits each call)."""

    agent: str
    prompt_tokens: int
    reply_tokens: int
    n_ctx: int


@dataclass
class RunOutcome:
    """How a run ended: what RunFinished says, and the head of the runner's RunSummary."""

    run_id: str
    completed: bool  # false: an infrastructure error ended the run
    approved: bool
    checks_passed: bool
    rounds_used: int
    files_changed: list[str]
    checks: list[str]
    message: str
    duration_s: float
    answered: bool = field(default=False, kw_only=True)  # a question answered; nothing was written


@dataclass
class RunFinished(RunOutcome, Event):
    @classmethod
    def of(cls, outcome: RunOutcome) -> RunFinished:
        """The event for a run that ended so (a RunSummary's figures beyond the outcome left out)."""
        return cls(**{f.name: getattr(outcome, f.name) for f in fields(RunOutcome)})


Subscriber = Callable[[Event], None]


class EventBus:
    """Thread-safe fan-out; a failing subscriber is dropped rather than breaking the run."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []
        self._history: list[Event] = []
        self._lock = threading.Lock()

    def subscribe(self, subscriber: Subscriber) -> None:
        with self._lock:
            self._subscribers.append(subscriber)

    def emit(self, event: Event) -> None:
        with self._lock:
            self._history.append(event)
            subscribers = list(self._subscribers)
        for subscriber in subscribers:
            try:
                subscriber(event)
            except Exception:  # noqa: BLE001 - a broken display must not stop the crew
                with self._lock:
                    if subscriber in self._subscribers:
                        self._subscribers.remove(subscriber)

    @property
    def history(self) -> list[Event]:
        with self._lock:
            return list(self._history)
