"""bench.replay: a call recorded from the real model is answered again from the recording, without
decoding; a prompt the recording never saw is a divergence, counted and logged, and the call fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.replay import Recording, _patch, call_key
from models.chat_engine import GenerationSettings
from models.engine import Engine

ASK = [{"role": "user", "content": "Say hello."}]
GEN = GenerationSettings(max_tokens=8)


def test_a_recorded_call_replays_without_the_model_and_a_new_prompt_diverges(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Engine, "stream_chat", Engine.stream_chat)  # put back after the test
    calls = tmp_path / "calls.jsonl"
    _patch("record", Recording(calls))
    said = "".join(engine.stream_chat(ASK, GEN))
    assert said and len(calls.read_text().splitlines()) == 1

    def no_model(*args: object, **kwargs: object) -> None:
        raise AssertionError("replay decoded")

    monkeypatch.setattr(Engine, "stream_chat", no_model)
    replaying = Recording(calls)
    replaying.load()
    _patch("replay", replaying)
    stream = engine.stream_chat(ASK, GEN)
    assert "".join(stream) == said and stream.stats is not None
    with pytest.raises(RuntimeError, match="never saw"):
        engine.stream_chat([{"role": "user", "content": "Say goodbye."}], GEN)
    assert (replaying.answered, replaying.misses) == (1, 1)
    assert "Say goodbye." in Path(f"{calls}.misses").read_text()


def test_the_cache_answers_what_it_knows_and_decodes_and_keeps_what_it_does_not(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = Engine.stream_chat
    decoded: list[object] = []

    def counting(self: Engine, messages: object, *args: object, **kwargs: object) -> object:
        decoded.append(messages)
        return model(self, messages, *args, **kwargs)

    calls = tmp_path / "calls.jsonl"
    monkeypatch.setattr(Engine, "stream_chat", counting)
    _patch("cache", Recording(calls))  # no file yet: every call is decoded and kept
    said = "".join(engine.stream_chat(ASK, GEN))
    assert said and len(decoded) == 1 and len(calls.read_text().splitlines()) == 1

    monkeypatch.setattr(Engine, "stream_chat", counting)  # the next configuration's process
    cache = Recording(calls)
    cache.load()
    _patch("cache", cache)
    assert "".join(engine.stream_chat(ASK, GEN)) == said and len(decoded) == 1  # known: not decoded
    assert "".join(engine.stream_chat([{"role": "user", "content": "Say goodbye."}], GEN))
    assert len(decoded) == 2 and (cache.answered, cache.misses) == (1, 1)
    assert len(calls.read_text().splitlines()) == 2  # kept for the configuration after
    assert not Path(f"{calls}.misses").exists()  # a cache's new call is no divergence


def test_a_run_time_or_an_object_address_in_a_prompt_is_matched_loosely_and_counted(tmp_path: Path) -> None:
    # Two runs of the same code: a retry prompt said "exit 1 in 0.13s" in one and "in 0.20s" in the
    # other, or named "<Vector object at 0x7f8b33219ad0>"; the acceptance replay diverged on both.
    def key(text: str) -> str:
        return call_key([{"role": "user", "content": text}], GEN, None)

    calls = tmp_path / "calls.jsonl"
    recorded = Recording(calls)
    recorded.add(key("python a.py: exit 1 in 0.13s; got <V object at 0x7f8b33219ad0>"), "fixed", None)
    recorded.add(key("Say hello."), "hello", None)
    replaying = Recording(calls)
    replaying.load()
    row = replaying.take(key("python a.py: exit 1 in 0.20s; got <V object at 0x7f02a04a98d0>"))
    assert row is not None and row["text"] == "fixed"
    assert replaying.take(key("Say hello."))["text"] == "hello"  # type: ignore[index]
    assert (replaying.answered, replaying.loose) == (2, 1)
    assert replaying.take(key("python a.py: exit 2 in 0.20s; got <V object at 0x7f02a04a98d0>")) is None
