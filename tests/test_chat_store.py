"""The workspace's chat on disk: survives a restart, bounded, atomic, and a bad file never crashes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gui.chat_store import MAX_MESSAGES, ChatStore


def _turn(i: int) -> list[dict]:
    return [{"role": "user", "content": f"request {i}"}, {"role": "assistant", "content": f"answer {i}"}]


def test_a_saved_chat_comes_back_in_a_new_store_as_after_a_restart(tmp_path: Path) -> None:
    store = ChatStore(tmp_path)
    handle = store.begin([{"role": "user", "content": "write add.py"}])
    tool = {
        "role": "assistant",
        "content": "Arguments",
        "metadata": {"title": "Tool: write_file", "status": "pending"},
    }
    store.update(handle, [{"role": "user", "content": "write add.py"}, tool])
    messages, notice = ChatStore(tmp_path).load()
    assert notice == ""
    assert [m["content"] for m in messages] == ["write add.py", "Arguments"]
    assert messages[1]["metadata"] == {"title": "Tool: write_file", "status": "done"}  # no stale spinner
    assert (tmp_path / ".localcrew" / ".gitignore").read_text() == "*\n"  # git status stays clean


def test_the_chat_keeps_only_the_newest_messages_and_starts_on_a_request(tmp_path: Path) -> None:
    store = ChatStore(tmp_path)
    messages = [m for i in range(MAX_MESSAGES) for m in _turn(i)]
    store.save([{"role": "assistant", "content": "orphan"}, *messages])
    kept, _ = ChatStore(tmp_path).load()
    assert len(kept) == MAX_MESSAGES and kept[0] == {
        "role": "user",
        "content": f"request {MAX_MESSAGES // 2}",
    }
    assert kept[-1]["content"] == f"answer {MAX_MESSAGES - 1}"


def test_a_run_streams_into_its_own_place_after_the_earlier_chat(tmp_path: Path) -> None:
    store = ChatStore(tmp_path)
    store.save(_turn(0))
    handle = store.begin([{"role": "user", "content": "second"}])
    assert store.before(handle) == _turn(0)
    handle, problem = store.update(
        handle, [{"role": "user", "content": "second"}, {"role": "assistant", "content": "ok"}]
    )
    assert problem == ""
    assert [m["content"] for m in store.load()[0]] == ["request 0", "answer 0", "second", "ok"]


def test_clear_forgets_the_chat_and_a_run_streaming_then_starts_the_new_one(tmp_path: Path) -> None:
    (tmp_path / "keep.py").write_text("x = 1\n")
    store = ChatStore(tmp_path)
    store.save(_turn(0))
    handle = store.begin([{"role": "user", "content": "running"}])
    assert store.clear() == ""
    assert store.load()[0] == [] and not store.path.exists()
    store.update(handle, [{"role": "user", "content": "running"}, {"role": "assistant", "content": "done"}])
    assert [m["content"] for m in ChatStore(tmp_path).load()[0]] == [
        "running",
        "done",
    ]  # not the cleared turn
    assert (tmp_path / "keep.py").read_text() == "x = 1\n"  # Clear chat touches no file


@pytest.mark.parametrize("content", ["{not json", json.dumps({"messages": "nope"}), json.dumps([1, 2])])
def test_a_damaged_chat_file_gives_an_empty_chat_and_a_notice_and_is_kept_aside(
    tmp_path: Path, content: str
) -> None:
    path = tmp_path / ".localcrew" / "chat.json"
    path.parent.mkdir()
    path.write_text(content)
    messages, notice = ChatStore(tmp_path).load()
    assert messages == [] and "damaged" in notice
    assert (path.parent / "chat.json.damaged").read_text() == content  # not overwritten by the next save


def test_unknown_entries_in_the_file_are_dropped_not_shown(tmp_path: Path) -> None:
    path = tmp_path / ".localcrew" / "chat.json"
    path.parent.mkdir()
    odd = [
        {"role": "system", "content": "x"},
        {"role": "user", "content": {"path": "/tmp/a.png"}},
        "text",
        None,
    ]
    path.write_text(json.dumps({"messages": [*odd, {"role": "user", "content": "kept"}]}))
    assert ChatStore(tmp_path).load() == ([{"role": "user", "content": "kept"}], "")


def test_a_save_is_atomic_a_failed_write_leaves_the_old_chat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ChatStore(tmp_path)
    store.save(_turn(0))

    def crash(*_args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    assert "could not be saved" in store.save(_turn(1))
    monkeypatch.undo()
    assert ChatStore(tmp_path).load()[0] == _turn(0)
    assert [p.name for p in store.path.parent.iterdir() if p.name.endswith(".tmp")] == []  # no litter


def test_an_unwritable_workspace_says_why_and_keeps_the_chat_in_memory(tmp_path: Path) -> None:
    (tmp_path / ".localcrew").write_text("a file where the folder should be")
    store = ChatStore(tmp_path)
    assert "could not be saved" in store.save(_turn(0))
    assert store.load()[0] == _turn(0)
