"""Run crew requests from the page: one at a time on the one model, streamed as view snapshots.

Gradio's queue already serializes runs (one concurrency group for everything that uses the
model); the lock here keeps that true for any other caller too. Stop sets an event the engine
checks between tokens, so a run ends cleanly within about a second.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from agents.events import Event, EventBus, Notice
from gui.run_view import RunView
from gui.user_settings import UserSettings
from gui.workspace_index import WorkspaceIndex
from models.model_host import ModelHost

REFRESH_S = 0.15  # how often a streaming run pushes a new snapshot to the browser


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
        self._lock = threading.Lock()
        self.busy = False
        self._owner: str | None = None  # the browser session whose run holds the model

    def stop(self, owner: str | None = None) -> None:
        """Stop the run of this browser session (None: whichever runs); another tab's Stop must not
        end someone else's run."""
        if owner is None or owner == self._owner:
            self.cancel.set()

    def run(self, request: str, owner: str = "") -> Iterator[RunView]:
        view = RunView(request.strip())
        if not view.request:
            view.say("Type a request first, e.g. *Write fizzbuzz.py that prints FizzBuzz for 1..15*.")
            yield view
            return
        if not self._lock.acquire(blocking=False):
            view.say("Another request is running on the model; yours starts when it ends…")
            yield view
            self._lock.acquire()
        try:
            self.busy, self._owner = True, owner
            yield from self._run_locked(view)
        finally:
            self.busy, self._owner = False, None
            self._lock.release()

    def _run_locked(self, view: RunView) -> Iterator[RunView]:
        if self.host.status().state in ("idle", "loading"):
            view.say("The model is still loading; your request starts as soon as it is ready…")
            yield view
            self.host.wait()
        engine = self.host.engine
        if engine is None:
            view.say(f"**Error:** no model is loaded: {self.host.status().message}")
            yield view
            return
        self.cancel.clear()
        events: queue.Queue[Event] = queue.Queue()
        bus = EventBus()
        bus.subscribe(events.put)
        worker = threading.Thread(target=self._crew_thread, args=(engine, view.request, bus), daemon=True)
        worker.start()
        last_push = 0.0
        try:
            while worker.is_alive() or not events.empty():
                with contextlib.suppress(queue.Empty):
                    view.apply(events.get(timeout=REFRESH_S))
                if time.monotonic() - last_push >= REFRESH_S:
                    last_push = time.monotonic()
                    yield view
            yield view
        except GeneratorExit:  # the page went away or Gradio cancelled: stop the crew too
            self.cancel.set()
            worker.join(timeout=30)
            raise

    def _crew_thread(self, engine: object, request: str, bus: EventBus) -> None:
        try:
            from agents.context_retrieval import index_retriever
            from agents.crew_runner import CrewRunner, CrewSettings

            settings = self.settings()
            workspace = self.workspace()
            retriever, searcher = index_retriever(workspace, opener=self.index().open)
            runner = CrewRunner(
                engine,  # type: ignore[arg-type]
                workspace,
                bus,
                CrewSettings(rounds=settings.rounds, temperature=settings.temperature, seed=settings.seed),
                retriever=retriever,
                cancel=self.cancel,
                searcher=searcher,
            )
            runner.run(request)
        except Exception as exc:  # noqa: BLE001 - the page must stay up and say what happened
            bus.emit(Notice(level="error", message=f"The run could not start: {type(exc).__name__}: {exc}"))
