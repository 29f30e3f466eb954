"""The page's request queue: a waiting request shows its place, and its own tab can withdraw it
before it ever reaches the model. No model: the place is held by exclusive() as an undo holds it."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from agents.events import AgentStarted, RunStarted
from gui.crew_session import CrewSession, Progress, Ticket


class NoModel:
    """A host the queue must never reach while a request only waits."""

    def status(self) -> Any:
        raise AssertionError("a waiting or withdrawn request touched the model")


def _session() -> CrewSession:
    return CrewSession(NoModel(), lambda: None, lambda: Path("."), lambda: None)  # type: ignore[arg-type]


def _collect(
    session: CrewSession, request: str, owner: str, out: list[str], ticket: Ticket
) -> threading.Thread:
    def consume() -> None:
        for view in session.run(request, owner=owner, ticket=ticket):
            out.append(view.messages[-1]["content"])

    thread = threading.Thread(target=consume, daemon=True)
    thread.start()
    return thread


def _until(condition: Any, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_waiting_request_shows_its_place_and_cancel_withdraws_it_before_it_runs() -> None:
    session = _session()
    with session.exclusive("tab-1") as free:
        assert free and session.busy
        shown: list[str] = []
        ticket = Ticket("tab-2")
        thread = _collect(session, "write add.py", "tab-2", shown, ticket)
        _until(lambda: shown)
        assert ticket.state == "waiting" and ticket.ahead == 1
        assert "1 ahead" in shown[-1] and session.waiting_count("tab-2") == 1
        assert session.withdraw("tab-1") == []  # another tab cannot withdraw it
        assert [t.request for t in session.withdraw("tab-2")] == ["write add.py"]  # back to its box
        thread.join(timeout=5)
    assert not thread.is_alive() and ticket.state == "withdrawn"
    assert shown[-1].startswith("Withdrawn before it ran")
    assert session.waiting_count() == 0 and not session.busy


def test_places_count_every_request_ahead_and_stop_withdraws_only_its_tabs() -> None:
    session = _session()
    with session.exclusive():
        first, second = Ticket("a"), Ticket("b")
        threads = [_collect(session, "one", "a", [], first), _collect(session, "two", "b", [], second)]
        _until(lambda: session.waiting_count() == 2)
        _until(lambda: second.ahead == 2)
        assert first.ahead == 1
        session.stop("a")  # Stop in tab a: its waiting request goes, tab b's stays
        _until(lambda: second.ahead == 1)
        assert first.state == "withdrawn" and second.state == "waiting"
        assert not session.cancel.is_set()  # nothing of tab a's was running
        session.withdraw("b")
        for thread in threads:
            thread.join(timeout=5)


def test_an_undo_or_load_is_refused_while_a_request_waits() -> None:
    session = _session()
    with session.exclusive() as first:
        thread = _collect(session, "write", "tab", [], ticket := Ticket("tab"))
        _until(lambda: session.waiting_count() == 1)
        with session.exclusive() as second:
            assert first and not second
        session.withdraw("tab")
        thread.join(timeout=5)
    assert ticket.state == "withdrawn"
    with session.exclusive() as again:
        assert again  # released


def test_an_empty_request_answers_at_once_without_queueing() -> None:
    session = _session()
    with session.exclusive():
        views = list(session.run("   ", owner="tab"))
    assert "Type a request first" in views[-1].messages[-1]["content"]


def test_progress_says_elapsed_time_and_round_k_of_n() -> None:
    progress = Progress(started=time.monotonic() - 75)
    progress.apply(RunStarted(run_id="r", request="x", workspace=".", rounds=3))
    progress.apply(AgentStarted(agent="coder", round=2))
    assert progress.text() == "Running 1:15 · round 2 of 3 · Coder"
    progress.apply(AgentStarted(agent="coder", round=2, rounds=4))  # a plain try added a round
    assert progress.text() == "Running 1:15 · round 2 of 4 · Coder"


def test_progress_says_when_no_new_round_starts() -> None:
    progress = Progress(started=time.monotonic() - 75)
    progress.apply(RunStarted(run_id="r", request="x", workspace=".", rounds=3, budget_s=600.0))
    progress.apply(AgentStarted(agent="coder", round=2))
    assert progress.text() == "Running 1:15 · round 2 of 3, none starts after 10:00 · Coder"


class ReadyHost:
    engine = object()

    def status(self) -> Any:
        class Ready:
            state, message = "ready", "ready"

        return Ready()


def _run_until_started(session: CrewSession, saved: list[list[dict]]) -> Any:
    started = threading.Event()

    def crew(engine: object, request: str, bus: Any) -> None:
        from agents.events import Notice

        bus.emit(RunStarted(run_id="r", request=request, workspace=".", rounds=2))
        bus.emit(AgentStarted(agent="coder", round=1))
        started.set()
        session.cancel.wait(timeout=30)
        bus.emit(Notice(level="info", message="Stopped by the user."))

    session._crew_thread = crew  # type: ignore[method-assign]
    stream = session.run("write add.py", owner="old page", on_change=saved.append)
    first = next(stream)
    assert first.messages[0]["content"] == "write add.py" and saved  # kept from the start
    assert started.wait(timeout=5)
    return stream


def test_a_run_outlives_its_page_and_then_any_tab_may_stop_it() -> None:
    """A reload closes the page's stream; the run goes on, keeps saving its chat, and since its
    page is gone the new page (another session) may stop it."""
    session = CrewSession(ReadyHost(), lambda: None, lambda: Path("."), lambda: None)  # type: ignore[arg-type]
    saved: list[list[dict]] = []
    stream = _run_until_started(session, saved)
    stream.close()  # the page reloads
    live = session.live
    assert live is not None and live.detached and not live.done.is_set() and session.busy
    _until(lambda: "round 1 of 2" in session.progress.text())
    session.stop("the reloaded page")
    assert live.done.wait(timeout=5) and not session.busy
    assert "Stopped by the user" in saved[-1][-1]["content"]  # the end reached the chat store


def test_a_stop_that_comes_before_the_server_knows_the_page_reloaded_is_kept_until_it_does() -> None:
    session = CrewSession(ReadyHost(), lambda: None, lambda: Path("."), lambda: None)  # type: ignore[arg-type]
    saved: list[list[dict]] = []
    stream = _run_until_started(session, saved)
    session.stop("the reloaded page")  # its old page's stream has not closed yet
    time.sleep(0.3)
    live = session.live
    assert live is not None and not session.cancel.is_set()  # another open tab's run is not its to end
    stream.close()  # the server learns the old page is gone: the Stop it was sent now counts
    assert live.done.wait(timeout=5) and not session.busy
    assert "Stopped by the user" in saved[-1][-1]["content"]


def test_a_page_that_stopped_ticking_is_gone_and_the_stop_it_was_sent_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gui.crew_session as crew_session

    session = CrewSession(ReadyHost(), lambda: None, lambda: Path("."), lambda: None)  # type: ignore[arg-type]
    saved: list[list[dict]] = []
    session.seen("old page")  # the run's page ticked
    stream = _run_until_started(session, saved)  # kept open: the server did not notice the reload
    session.seen("the reloaded page")
    session.stop("the reloaded page")
    live = session.live
    assert live is not None and not session.cancel.is_set()  # the old page ticked moments ago
    monkeypatch.setattr(crew_session, "PAGE_GONE_S", 0.2)
    time.sleep(0.3)
    session.seen("the reloaded page")  # its next tick: the old page has gone quiet
    assert live.done.wait(timeout=5) and "Stopped by the user" in saved[-1][-1]["content"]
    stream.close()


def test_a_client_that_never_ticks_is_not_taken_for_gone() -> None:
    session = CrewSession(ReadyHost(), lambda: None, lambda: Path("."), lambda: None)  # type: ignore[arg-type]
    stream = _run_until_started(session, [])  # an API client: it streams, it never ticks
    session.seen("another tab")
    session.stop("another tab")
    session.seen("another tab")
    time.sleep(0.3)
    assert not session.cancel.is_set()
    session.stop(None)
    stream.close()


def test_pages_that_went_quiet_are_forgotten_but_the_runs_own_page_is_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gui.crew_session as crew_session

    session = CrewSession(ReadyHost(), lambda: None, lambda: Path("."), lambda: None)  # type: ignore[arg-type]
    saved: list[list[dict]] = []
    session.seen("old page")
    stream = _run_until_started(session, saved)
    monkeypatch.setattr(crew_session, "PAGE_GONE_S", 0.2)
    for n in range(3 * crew_session.MAX_PAGES_KEPT):  # reload after reload, each a new session
        session.seen(f"page {n}")
    time.sleep(0.3)  # they all go quiet, the run's own page too
    session.seen("the last page")
    assert set(session._seen) == {"old page", "the last page"}
    session.stop("the last page")  # the run's page is still known to have gone quiet: the Stop counts
    assert session.live is not None and session.live.done.wait(timeout=5)
    assert "Stopped by the user" in saved[-1][-1]["content"]
    stream.close()
