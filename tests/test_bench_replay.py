"""bench.replay: a call recorded from the real model is answered again from the recording, without
decoding; a prompt the recording never saw is a divergence, counted and logged, and the call fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.replay import Recording, _patch
from models.engine import Engine, GenerationSettings

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
