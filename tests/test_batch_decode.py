"""Candidates decoded together (models.batch_decode): on the real bundled model, N replies in one
batch are the replies N chat() calls give, each sequence keeps its own seed, stops and length, and
the engine's cache is left as an ordinary call leaves it. The server backend asks in parallel.

Exact equality holds here on every CPU: the bundled model is Q4_1, which llama.cpp never repacks,
so a row of a batch is computed as a lone row is (models.batch_decode's docstring says where not)."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import replace

import pytest

from models import batch_decode
from models.chat_engine import CallStats, ChatEngine, GenerationSettings, spread_settings
from models.engine import Engine
from models.openai_engine import OpenAIEngine, RemoteSettings
from tests.scripted_engine import ScriptedEngine
from tests.stub_openai_server import StubServer

ASK = [
    {"role": "system", "content": "You are a helpful coding assistant."},
    {"role": "user", "content": "Write a Python function that adds two numbers."},
]
OTHER = [{"role": "user", "content": "Name three colours."}]
GREEDY = GenerationSettings(temperature=0.0, seed=7, max_tokens=40)
SAMPLED = GenerationSettings(temperature=1.0, seed=11, max_tokens=24)


def _fresh_chat(engine: Engine, messages: list[dict[str, str]], gen: GenerationSettings) -> str:
    # From an empty cache: a prompt evaluated in other chunks can round differently in the last bits.
    engine.forget_cache()
    return engine.chat(messages, gen)[0]


def test_greedy_replies_decoded_together_are_those_of_single_calls(engine: Engine) -> None:
    single = _fresh_chat(engine, ASK, GREEDY)
    # Sampled sequences beside the greedy ones: their own streams must not leak into the others.
    gens = [GREEDY, replace(SAMPLED, seed=1), GREEDY, replace(SAMPLED, seed=2)]
    engine.forget_cache()
    replies = engine.complete_many(ASK, gens)
    assert len(replies) == 4 and single.strip()
    assert replies[0][0] == single and replies[2][0] == single
    assert (
        replies[0][1].completion_tokens == engine.complete_many(ASK, [GREEDY, GREEDY])[1][1].completion_tokens
    )


def test_each_seed_samples_its_own_reply_as_a_single_call_would(engine: Engine) -> None:
    gens = spread_settings(SAMPLED, 4)
    assert [gen.seed for gen in gens] == [11, 12, 13, 14]
    engine.forget_cache()
    texts = [text for text, _ in engine.complete_many(ASK, gens)]
    assert len(set(texts)) >= 3, texts  # different seeds, different samples
    engine.forget_cache()
    again = [text for text, _ in engine.complete_many(ASK, gens[::-1])]
    assert again == texts[::-1]  # a sequence's sample depends on its seed, not its place in the batch
    assert _fresh_chat(engine, ASK, gens[1]) == texts[1]


def test_stops_and_max_tokens_apply_per_sequence(engine: Engine) -> None:
    gens = [
        replace(GREEDY, max_tokens=5),
        replace(GREEDY, max_tokens=64, stop=("\n",)),
        replace(GREEDY, max_tokens=64),
    ]
    (short, short_stats), (line, line_stats), (long, long_stats) = engine.complete_many(ASK, gens)
    assert short_stats.completion_tokens == 5 and short_stats.finish_reason == "length"
    assert "\n" not in line and line_stats.finish_reason == "stop"
    assert long_stats.completion_tokens > 5 and long.startswith(short)
    assert "\n" in long and long.startswith(line)
    assert long_stats.total_s >= short_stats.total_s  # a sequence ends when its own limit comes
    total = engine.last_stats
    assert total is not None and total.completion_tokens == sum(
        s.completion_tokens for s in (short_stats, line_stats, long_stats)
    )
    assert total.decode_tokens_per_s > 0


def test_the_cache_is_left_clean_for_the_next_chat(engine: Engine) -> None:
    expected_other = _fresh_chat(engine, OTHER, GREEDY)
    expected_ask = _fresh_chat(engine, ASK, GREEDY)
    engine.forget_cache()
    engine.complete_many(ASK, spread_settings(SAMPLED, 3))
    text, stats = engine.chat(ASK, GREEDY)
    assert text == expected_ask
    assert stats.prompt_tokens_evaluated <= 2  # the batch left this prompt in the engine's cache
    # A different prompt afterwards: nothing of the batch's replies is in the cache to mislead it.
    engine.complete_many(OTHER, spread_settings(SAMPLED, 2))
    assert engine.chat(ASK, GREEDY)[0] == expected_ask
    assert engine.chat(OTHER, GREEDY)[0] == expected_other


def test_a_schema_constrains_every_sequence(engine: Engine) -> None:
    schema = {
        "type": "object",
        "properties": {"answer": {"type": "integer"}},
        "required": ["answer"],
        "additionalProperties": False,
    }
    ask = [{"role": "user", "content": "What is 2 + 3? Answer in JSON."}]
    replies = engine.complete_many(ask, spread_settings(replace(SAMPLED, max_tokens=48), 3), schema=schema)
    for text, stats in replies:
        if stats.finish_reason == "stop":  # a cut reply can end anywhere
            assert isinstance(json.loads(text)["answer"], int)
        else:
            assert text.lstrip().startswith("{")


def test_cancel_ends_every_sequence(engine: Engine) -> None:
    cancel = threading.Event()
    cancel.set()
    replies = engine.complete_many(ASK, spread_settings(SAMPLED, 3), cancel)
    assert [stats.finish_reason for _, stats in replies] == ["cancelled"] * 3
    assert all(stats.completion_tokens <= 1 for _, stats in replies)


def test_one_by_one_when_the_batch_context_cannot_be_made(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_args: object) -> None:
        raise batch_decode.BatchUnavailableError("no memory for the batch (simulated)")

    gens = [replace(GREEDY, max_tokens=12), replace(SAMPLED, max_tokens=12)]
    engine.forget_cache()
    together = [text for text, _ in engine.complete_many(ASK, gens)]
    monkeypatch.setattr(batch_decode, "open_context", refuse)
    engine.forget_cache()
    one_by_one = engine.complete_many(ASK, gens)
    assert [text for text, _ in one_by_one] == together
    assert all(stats.finish_reason != "batch" for _, stats in one_by_one)


def test_one_settings_is_a_plain_call_and_none_is_nothing(engine: Engine) -> None:
    assert engine.complete_many(ASK, []) == []
    [(text, stats)] = engine.complete_many(ASK, [replace(GREEDY, max_tokens=6)])
    assert text and stats.completion_tokens <= 6 and engine.last_stats is stats


def test_the_protocol_default_calls_chat_once_per_settings() -> None:
    class OnlyChat(ChatEngine):
        def __init__(self) -> None:
            self.seeds: list[int] = []

        def chat(self, messages, gen=GREEDY, cancel=None, *, schema=None):  # noqa: ANN001, ANN202
            self.seeds.append(gen.seed)
            return f"seed {gen.seed}", CallStats()

    fake = OnlyChat()
    replies = fake.complete_many(ASK, spread_settings(GREEDY, 3, temperatures=[0.0, 0.5, 1.0]))
    assert [text for text, _ in replies] == ["seed 7", "seed 8", "seed 9"] and fake.seeds == [7, 8, 9]
    assert isinstance(ScriptedEngine(["a", "b"]), ChatEngine)
    assert [t for t, _ in ScriptedEngine(["a", "b"]).complete_many(ASK, [GREEDY, GREEDY])] == ["a", "b"]
    with pytest.raises(ValueError, match="2 temperatures for 3"):
        spread_settings(GREEDY, 3, temperatures=[0.1, 0.2])


def test_the_server_backend_asks_in_parallel() -> None:
    with StubServer("slow", reply=lambda body: f"seed {body['seed']} at {body['temperature']}") as stub:
        stub.slow_s = 0.6
        remote = OpenAIEngine(RemoteSettings(stub.url, retry_wait_s=0.05))
        remote.load()
        started = time.perf_counter()
        gens = spread_settings(GREEDY, 4, temperatures=[0.0, 0.3, 0.6, 0.9])
        replies = remote.complete_many(ASK, gens)
        elapsed = time.perf_counter() - started
        remote.close()
    assert [text for text, _ in replies] == [
        "seed 7 at 0.0",
        "seed 8 at 0.3",
        "seed 9 at 0.6",
        "seed 10 at 0.9",
    ]
    assert elapsed < 4 * stub.slow_s  # the four waits overlapped
    assert sorted(body["seed"] for body in stub.requests) == [7, 8, 9, 10]


def test_the_benchmark_reports_the_batch_speedup(engine: Engine) -> None:
    from bench.engine import batch_speedup

    figures = batch_speedup(engine, rounds=1, max_tokens=8)
    assert figures["batch_runs_each"] == 3
    assert figures["batch4_tokens"] > figures["batch1_tokens"] > 0
    assert figures["batch4_speedup"] > 0 and figures["batch1_tps"] > 0
    assert figures["batch_step_decode_ms"] > 0 and figures["batch_open_ms"] > 0
    assert figures["batch_backend_sampling"] is False  # the model runs on the CPU here


def test_chains_run_in_the_graph_where_the_batch_samples_on_the_backend(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On a GPU each chain is attached to the batch context; the CPU backend runs the same graph,
    # so the path is tried here: the replies are still those of single calls with the same seeds.
    gens = [GREEDY, replace(SAMPLED, seed=3), replace(SAMPLED, seed=4)]
    singles = [_fresh_chat(engine, ASK, gen) for gen in gens]
    monkeypatch.setattr(batch_decode, "samples_on_gpu", lambda llm, seqs: True)
    opened = []

    def open_context(*args: object) -> batch_decode._Context:
        opened.append(real_open(*args))
        return opened[-1]

    real_open = batch_decode.open_context
    monkeypatch.setattr(batch_decode, "open_context", open_context)
    engine.forget_cache()
    replies = [text for text, _ in engine.complete_many(ASK, gens)]
    assert engine.last_batch.backend_sampling and engine.last_batch.decode_steps > 0
    assert len(opened) == 1 and len(opened[0].samplers) == len(gens)  # a chain per sequence
    assert replies == singles
