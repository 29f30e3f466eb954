"""Run crew requests from the page: one at a time on the one model, streamed as view snapshots.

Requests wait in a first-come queue here rather than in Gradio's, so the page can show each
waiting request its place ("1 ahead") and a tab can withdraw its own waiting request (Cancel, or
Stop) before it ever reaches the model. Stop sets an event the engine checks between tokens, so a
run ends cleanly within about a second.
"""

from __future__ import annotations

import contextlib
import copy
import queue
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from agents.events import AgentStarted, Event, EventBus, Notice, RunHeld, RunStarted
from gui.run_view import AGENT_TITLES, RunView
from gui.user_settings import UserSettings
from gui.workspace_index import WorkspaceIndex
from models.model_host import ModelHost

REFRESH_S = 0.15  # how often a streaming run pushes a new snapshot to the browser
WAIT_REFRESH_S = 1.0  # how often a waiting request re-checks (and re-shows) its place
CHAT_SAVE_S = 5.0  # a running request's chat is handed to on_change this often (a restart keeps it)


@dataclass
class Ticket:
    """One request's place: waiting (with how many are ahead), running, withdrawn or done."""

    owner: str
    state: str = "waiting"
    ahead: int = 0
    request: str = ""  # given back to the request box when withdrawn, so the typing is not lost
    # Asked when the request starts to run: True when it opens a new conversation, so the crew
    # takes no earlier run as the one a follow-up means (None: it follows up the last run).
    fresh: Callable[[], bool] | None = None


@dataclass
class Progress:
    """What the running request is doing, from its events: elapsed time and round k of n."""

    started: float = field(default_factory=time.monotonic)
    rounds: int = 0
    round: int = 0
    agent: str = ""
    budget_s: float = 0.0  # no round starts after it (0: none)

    def __post_init__(self) -> None:
        # The same moment in wall time, for the page's clock; fixed, so the line stays the same
        # until the round or the agent changes.
        self.started_wall = time.time() - (time.monotonic() - self.started)

    def apply(self, event: Event) -> None:
        if isinstance(event, RunStarted):
            self.rounds, self.budget_s = event.rounds, event.budget_s
        elif isinstance(event, AgentStarted):
            self.round, self.agent = event.round, event.agent
            self.rounds = event.rounds or self.rounds

    def text(self) -> str:
        return self._line(_clock(int(time.monotonic() - self.started)))

    def line(self) -> str:
        """text() for the page: the clock ticks in the browser (editor_guard.KEYS_JS) from the
        run's start in wall time, so it keeps time between the server's updates, which a busy
        machine delays."""
        elapsed = time.monotonic() - self.started
        clock = f'<span class="lc-clock" data-start="{self.started_wall:.3f}" data-now="{time.time():.3f}">'
        return self._line(f"{clock}{_clock(int(elapsed))}</span>")

    def _line(self, clock: str) -> str:
        parts = [f"Running {clock}"]
        if self.round and self.rounds:
            budget = f", none starts after {_clock(int(self.budget_s))}" if self.budget_s else ""
            parts.append(f"round {self.round} of {self.rounds}{budget}")
        if self.agent:
            parts.append(AGENT_TITLES.get(self.agent, self.agent.title()))
        return " · ".join(parts)


_DRAWN_AT = re.compile(r' data-now="[^"]*"')  # when the server drew the line's clock (Progress.line)


def drawn_alike(one: str, other: str) -> bool:
    """Two lines that differ only in when their clock was drawn: the page's clock ticks by itself."""
    return _DRAWN_AT.sub("", one) == _DRAWN_AT.sub("", other)


def past_of(request: str) -> Callable[[list[tuple[str, str | None, str | None]]], list[str]]:
    """How a run's change reaches past `request` (agents/past_the_request.py), for Review's "auto"."""
    from agents.past_the_request import reaches_past
    from agents.request import RequestFacts

    facts = RequestFacts.read(request)
    return lambda changes: reaches_past(facts, changes)


def _clock(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


@dataclass
class LiveRun:
    """The request that holds the model: its view, folded from events in the run's own thread."""

    view: RunView
    ticket: Ticket
    lock: threading.Lock = field(default_factory=threading.Lock)
    done: threading.Event = field(default_factory=threading.Event)
    detached: bool = False  # its page went away; the run goes on
    finished_at: float | None = None
    watchers: set[str] = field(default_factory=set)  # the other pages shown it going, not yet its end

    def snapshot(self) -> RunView:
        """A copy to hand to the page: the run's thread keeps changing the view."""
        with self.lock:
            return copy.deepcopy(self.view)


PENDING_STOP_S = 120.0  # how long another page's Stop waits for the run's own page to be gone
# A page ticks every few seconds (gui.crew_chat_wiring.WATCH_S); one not heard from for this long
# is gone (reloaded or closed), even where the server has not seen its stream close.
PAGE_GONE_S = 15.0
MAX_PAGES_KEPT = 64  # page ticks remembered before quiet pages are forgotten


class CrewSession:
    def __init__(
        self,
        host: ModelHost,
        settings: Callable[[], UserSettings],
        workspace: Callable[[], Path],
        index: Callable[[], WorkspaceIndex],
    ) -> None:
        self.host = host
        self.settings = settings
        self.workspace = workspace
        self.index = index
        self.cancel = threading.Event()
        # A Stop from another page while the run's own page still looked open: a reloaded page's
        # Stop can come before the server learns the old page closed; it is kept until then.
        self._stop_asked_at: float | None = None
        self._seen: dict[str, float] = {}  # each page's last tick, by its session
        self._queue = threading.Condition()
        self._waiting: list[Ticket] = []
        self._running: Ticket | None = None
        self.progress = Progress()
        self.live: LiveRun | None = None  # the running request, or the last one

    @property
    def busy(self) -> bool:
        return self._running is not None

    @property
    def running_owner(self) -> str | None:
        running = self._running
        return running.owner if running else None

    def waiting_count(self, owner: str | None = None) -> int:
        """How many requests wait (None: of all tabs; else of this browser session)."""
        return sum(1 for t in list(self._waiting) if owner is None or t.owner == owner)

    def withdraw(self, owner: str) -> list[Ticket]:
        """Withdraw this browser session's waiting requests; returns them."""
        with self._queue:
            mine = [t for t in self._waiting if t.owner == owner]
            for ticket in mine:
                ticket.state = "withdrawn"
                self._waiting.remove(ticket)
            self._queue.notify_all()
        return mine

    def stop(self, owner: str | None = None) -> None:
        """Stop this browser session's run and withdraw its waiting requests (None: whichever
        runs); another tab's Stop must not end someone else's run, unless that run's page is gone
        (reloaded or closed: its new page has another session)."""
        if owner is not None:
            self.withdraw(owner)
        live = self.live
        detached = live is not None and not live.done.is_set() and (live.detached or self._gone(live))
        if owner is None or owner == self.running_owner or detached:
            self.cancel.set()
        elif live is not None and not live.done.is_set():
            self._stop_asked_at = time.monotonic()

    def seen(self, owner: str) -> None:
        """A page ticked: it is open. A Stop another page sent while the run's own page looked open
        takes effect once that page has gone quiet."""
        now = self._seen[owner] = time.monotonic()
        live = self.live
        if len(self._seen) > MAX_PAGES_KEPT:  # one entry per page load: forget long-quiet pages
            keep = live.ticket.owner if live is not None else None
            self._seen = {o: t for o, t in self._seen.items() if o == keep or now - t < PAGE_GONE_S}
        if live is not None and self._stop_pending() and not live.done.is_set() and self._gone(live):
            self.cancel.set()

    def _stop_pending(self) -> bool:
        """Another page's Stop came in the last PENDING_STOP_S, while the run's page looked open."""
        asked = self._stop_asked_at
        return asked is not None and time.monotonic() - asked < PENDING_STOP_S

    def _gone(self, live: LiveRun) -> bool:
        """The run's page ticked before and has not for PAGE_GONE_S (a client that never ticks, such
        as an API client, is never taken for gone)."""
        last = self._seen.get(live.ticket.owner)
        return last is not None and time.monotonic() - last > PAGE_GONE_S

    @contextlib.contextmanager
    def exclusive(self, owner: str = "") -> Iterator[bool]:
        """Hold the model's place for something that must not overlap a run (undo, a model load);
        yields False, holding nothing, while a request runs or waits."""
        with self._queue:
            free = self._running is None and not self._waiting
            if free:
                self._running = Ticket(owner, state="running")
        try:
            yield free
        finally:
            if free:
                with self._queue:
                    self._running = None
                    self._queue.notify_all()

    def run(
        self,
        request: str,
        owner: str = "",
        ticket: Ticket | None = None,
        on_change: Callable[[list[dict]], None] | None = None,
    ) -> Iterator[RunView]:
        """Stream the request's view. Once it holds the model the run lives in its own threads: a
        page that goes away (a reload, a closed tab) no longer ends it, and `on_change` gets the
        chat messages when the run starts, every CHAT_SAVE_S and at its end, to keep them."""
        view = RunView(request.strip())
        if not view.request:
            view.say("Type a request first, e.g. *Write fizzbuzz.py that prints FizzBuzz for 1..15*.")
            yield view
            return
        ticket = ticket or Ticket(owner)
        ticket.owner, ticket.request = owner, view.request
        if not (yield from self._wait_for_turn(view, ticket)):
            return
        live = LiveRun(view, ticket)
        self.progress, self.live, self._stop_asked_at = Progress(), live, None
        try:
            if on_change is not None:  # first here, so the page knows where the run's chat starts
                on_change(live.snapshot().messages)
            threading.Thread(target=self._pump, args=(live, on_change), daemon=True).start()
        except BaseException:
            self._release(ticket)
            raise
        try:
            while not live.done.wait(REFRESH_S):
                yield live.snapshot()
            yield live.snapshot()
        except GeneratorExit:  # the page went away: the run goes on, and any tab may stop it now
            live.detached = True
            if self._stop_pending():
                self.cancel.set()  # the Stop its reloaded page sent before we knew it had gone
            raise

    def _release(self, ticket: Ticket) -> None:
        with self._queue:
            ticket.state = "done"
            self._running = None
            self._queue.notify_all()

    def _wait_for_turn(self, view: RunView, ticket: Ticket) -> Iterator[RunView]:
        """Wait in line, showing the place; True once this ticket holds the model."""
        with self._queue:
            self._waiting.append(ticket)
        waiting_note: int | None = None
        try:
            while True:
                with self._queue:
                    if ticket.state == "withdrawn":
                        break
                    if self._running is None and self._waiting[0] is ticket:
                        self._waiting.pop(0)
                        ticket.state, self._running = "running", ticket
                        if waiting_note is not None:
                            del view.messages[waiting_note]
                        return True
                    ticket.ahead = self._waiting.index(ticket) + (self._running is not None)
                text = f"Waiting for the model: {ticket.ahead} ahead of this request. Cancel withdraws it."
                if waiting_note is None:
                    view.say(text)
                    waiting_note = len(view.messages) - 1
                view.messages[waiting_note]["content"] = text
                yield view
                with self._queue:
                    if ticket.state == "waiting":
                        self._queue.wait(timeout=WAIT_REFRESH_S)
        except GeneratorExit:  # the page went away while waiting: give the place up
            self.withdraw_ticket(ticket)
            raise
        if waiting_note is not None:
            view.messages[waiting_note]["content"] = "Withdrawn before it ran: the crew never saw it."
        yield view
        return False

    def withdraw_ticket(self, ticket: Ticket) -> None:
        with self._queue:
            if ticket in self._waiting:
                self._waiting.remove(ticket)
                ticket.state = "withdrawn"
            self._queue.notify_all()

    def _pump(self, live: LiveRun, on_change: Callable[[list[dict]], None] | None) -> None:
        """Run the crew and fold its events into the view, saving the chat as it goes."""

        def save() -> None:
            if on_change is not None:
                with contextlib.suppress(Exception):  # a full disk must not end the run
                    on_change(live.snapshot().messages)

        try:
            self._run_locked(live, save)
        except Exception as exc:  # noqa: BLE001 - the page must stay up and say what happened
            with live.lock:
                live.view.say(f"**Error:** the run ended unexpectedly: {type(exc).__name__}: {exc}")
        finally:
            save()
            live.finished_at = time.monotonic()
            self._release(live.ticket)
            live.done.set()

    def _run_locked(self, live: LiveRun, save: Callable[[], None]) -> None:
        view = live.view
        if self.host.status().state in ("idle", "loading"):
            with live.lock:
                view.say("The model is still loading; your request starts as soon as it is ready…")
            self.host.wait()
        engine = self.host.engine
        if engine is None:
            with live.lock:
                view.say(f"**Error:** no model is loaded: {self.host.status().message}")
            return
        self.cancel.clear()
        events: queue.Queue[Event] = queue.Queue()
        bus = EventBus()
        bus.subscribe(events.put)
        worker = threading.Thread(target=self._crew_thread, args=(engine, live.ticket, bus), daemon=True)
        worker.start()
        saved_at = time.monotonic()
        while worker.is_alive() or not events.empty():
            with contextlib.suppress(queue.Empty):
                event = events.get(timeout=REFRESH_S)
                with live.lock:
                    view.apply(event)
                self.progress.apply(event)
            if time.monotonic() - saved_at >= CHAT_SAVE_S:
                save()
                saved_at = time.monotonic()

    def _crew_thread(self, engine: object, ticket: Ticket, bus: EventBus) -> None:
        try:
            fresh = bool(ticket.fresh and ticket.fresh())
            from agents.crew_factory import build_crew
            from gui.crew_profile_choice import crew_settings

            settings = self.settings()
            crew, level, profile_note = crew_settings(settings)
            runner = build_crew(
                engine,  # type: ignore[arg-type]
                self.workspace(),
                bus,
                crew,
                index_opener=self.index().open,
                cancel=self.cancel,
                reviewer_engine=getattr(self.host, "reviewer_engine", None),  # None: the coder reviews
            )
            from tools.staged_changes import pending_note, stage_run

            if profile_note:
                bus.emit(Notice(level=level, message=profile_note))
            waiting = pending_note(self.workspace())
            if waiting:
                bus.emit(Notice(level="info", message=waiting))
            summary = runner.run(ticket.request, fresh=fresh)
            if summary.run_id and summary.files_changed:
                held = stage_run(
                    self.workspace(), summary.run_id, ticket.request, settings.review, past_of(ticket.request)
                )
                if held:
                    bus.emit(RunHeld(level="info", message=held))
        except Exception as exc:  # noqa: BLE001 - the page must stay up and say what happened
            bus.emit(Notice(level="error", message=f"The run could not start: {type(exc).__name__}: {exc}"))
