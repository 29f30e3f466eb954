"""New conversation: after it, the crew takes no earlier run as the one a follow-up means, through the
page's own path (the chat store decides, the session asks it when the request starts to run, the
runner drops its memory). The earlier runs stay undoable. Scripted engine, no model, no browser."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from agents.events import EventBus
from agents.run.runner import CrewRunner, CrewSettings
from gui.chat_store import ChatSaver, ChatStore
from gui.crew_session import CrewSession, Ticket
from gui.user_settings import UserSettings
from tests.test_crew_logic import GOOD, REQUEST, one_round
from tools.run_snapshot import RunSnapshots

FOLLOW_UP = "Now make it add absolute values."


class ReadyHost:
    """A loaded model host around a scripted engine."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    def status(self) -> Any:
        return SimpleNamespace(state="ready", message="ready")


def _no_index() -> Any:
    def refuse() -> Any:
        raise RuntimeError("no code index in this test")

    return SimpleNamespace(open=refuse)


def _send(workspace: Path, store: ChatStore, request: str, content: str) -> Any:
    """One request through CrewSession as the page sends it; returns the scripted engine."""
    engine = one_round("total_calc.py", content)
    session = CrewSession(
        ReadyHost(engine),  # type: ignore[arg-type]
        lambda: UserSettings(rounds=1),
        lambda: workspace,
        _no_index,
    )
    saver = ChatSaver(store)
    ticket = Ticket("tab", fresh=saver.opens_conversation)
    views = list(session.run(request, owner="tab", ticket=ticket, on_change=saver))
    assert any("Done" in m["content"] for m in views[-1].messages), views[-1].messages[-3:]
    return engine


def test_the_store_says_which_run_opens_a_conversation(tmp_path: Path) -> None:
    store = ChatStore(tmp_path)
    first = ChatSaver(store)
    assert not first.opens_conversation()  # not begun: nothing to say yet
    first([{"role": "user", "content": "one"}])
    assert first.opens_conversation()
    second = ChatSaver(store)
    second([{"role": "user", "content": "two"}])
    assert not second.opens_conversation()
    store.clear()
    assert ChatStore(tmp_path).load()[0] == []  # a restart after New conversation: still new
    third = ChatSaver(store)
    third([{"role": "user", "content": "three"}])
    assert third.opens_conversation()


def test_a_follow_up_in_the_same_conversation_sees_the_previous_request(tmp_path: Path) -> None:
    store = ChatStore(tmp_path)
    _send(tmp_path, store, REQUEST, GOOD)
    engine = _send(tmp_path, store, FOLLOW_UP, GOOD.replace("sum(xs)", "sum(abs(x) for x in xs)"))
    assert f"Previous request in this project: {REQUEST}" in engine.calls_of("coder")[0].prompt


def test_after_new_conversation_the_earlier_run_is_not_a_follow_ups_previous_and_stays_undoable(
    tmp_path: Path,
) -> None:
    store = ChatStore(tmp_path)
    _send(tmp_path, store, REQUEST, GOOD)
    assert store.clear() == ""
    engine = _send(tmp_path, store, FOLLOW_UP, GOOD.replace("sum(xs)", "sum(abs(x) for x in xs)"))
    prompt = engine.calls_of("coder")[0].prompt
    assert "Previous request" not in prompt and "It changed:" not in prompt
    # Only the conversation is new: both runs are in the history, and undo goes back through them.
    snaps = RunSnapshots(tmp_path)
    assert snaps.undo().label == FOLLOW_UP and snaps.undo().label == REQUEST
    assert not (tmp_path / "total_calc.py").exists()


def test_the_runner_forgets_the_previous_run_only_when_asked(tmp_path: Path) -> None:
    CrewRunner(one_round(), tmp_path, EventBus(), CrewSettings(rounds=1)).run(REQUEST)
    engine = one_round()
    CrewRunner(engine, tmp_path, EventBus(), CrewSettings(rounds=1)).run(FOLLOW_UP, fresh=True)
    assert "Previous request" not in engine.calls_of("coder")[0].prompt
    engine = one_round()
    CrewRunner(engine, tmp_path, EventBus(), CrewSettings(rounds=1)).run(FOLLOW_UP)
    assert f"Previous request in this project: {FOLLOW_UP}" in engine.calls_of("coder")[0].prompt


def test_a_request_sent_while_changes_wait_for_review_says_it_sees_the_files_without_them(
    tmp_path: Path,
) -> None:
    from tools.staged_changes import StagedChanges, StagedFile

    (tmp_path / "notes.py").write_text("NOTES = []\n")
    StagedChanges(tmp_path).stage("an earlier run", [StagedFile("notes.py", "NOTES = []\n", "NOTES = [1]\n")])
    store = ChatStore(tmp_path)
    _send(tmp_path, store, REQUEST, GOOD)
    said = " ".join(m["content"] for m in store.load()[0])
    assert "Changes to notes.py wait in the Review tab" in said
    assert (tmp_path / "notes.py").read_text() == "NOTES = []\n"  # nothing accepted on its behalf


def test_nothing_is_said_of_review_when_nothing_waits(tmp_path: Path) -> None:
    store = ChatStore(tmp_path)
    _send(tmp_path, store, REQUEST, GOOD)
    assert "Review tab" not in " ".join(m["content"] for m in store.load()[0])
