"""The engine on the real bundled model: streaming, stats, prefix reuse, limits, serialization."""

import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from models.chat_engine import (
    ContextOverflowError,
    EngineError,
    EngineSettings,
    GenerationSettings,
    ModelLoadError,
)
from models.engine import Engine, _metered_llama_class
from models.reply_trace import ReplyTrace
from tests.fake_nvml import gpu_state
from tests.gguf_builder import llama_like

GREEDY = GenerationSettings(temperature=0.0, seed=7, max_tokens=48)
ASK = [
    {"role": "system", "content": "You are a helpful coding assistant."},
    {"role": "user", "content": "Write a Python function that adds two numbers."},
]


def test_streams_pieces_and_reports_stats(engine: Engine) -> None:
    pieces = list(engine.stream_chat(ASK, GREEDY))
    stats = engine.last_stats
    assert len(pieces) > 3 and "".join(pieces).strip()
    assert stats.prompt_tokens == len(engine.tokenize_chat(ASK)[0])
    assert 0 < stats.completion_tokens <= GREEDY.max_tokens
    assert 0 < stats.time_to_first_token_s < stats.total_s
    assert stats.decode_tokens_per_s > 0
    assert stats.finish_reason in {"stop", "length"}


def test_greedy_output_is_reproducible(bundled_model: Path) -> None:
    # Two fresh engines: the shared one may answer from its KV cache, and a prompt evaluated in
    # another batch shape rounds differently (so its greedy reply can differ).
    replies = []
    for _ in range(2):
        fresh = Engine(bundled_model, EngineSettings(n_ctx=2048))
        fresh.load()
        try:
            replies.append(fresh.chat(ASK, GREEDY)[0])
        finally:
            fresh.close()
    assert replies[0] == replies[1] and replies[0].strip()


def test_follow_up_turn_reuses_the_kv_cache(engine: Engine) -> None:
    reply, first = engine.chat(ASK, GREEDY)
    assert first.prompt_tokens_evaluated >= 1
    turn2 = ASK + [{"role": "assistant", "content": reply}, {"role": "user", "content": "Add type hints."}]
    _, second = engine.chat(turn2, GREEDY)
    assert second.prompt_tokens > first.prompt_tokens
    # Only the new turn (and the template tokens around it) is processed again.
    assert second.prompt_tokens_evaluated < 0.5 * second.prompt_tokens


def test_stop_words_end_generation(engine: Engine) -> None:
    text, _ = engine.chat(ASK, GenerationSettings(temperature=0.0, max_tokens=64, stop=("\n",)))
    assert "\n" not in text


def test_max_tokens_is_honoured(engine: Engine) -> None:
    _, stats = engine.chat(ASK, GenerationSettings(temperature=0.0, max_tokens=5))
    assert stats.completion_tokens <= 5
    assert stats.finish_reason == "length"


def test_a_stop_while_a_long_prompt_is_read_ends_it_at_the_next_chunk(bundled_model: Path) -> None:
    """A Stop during the prompt's evaluation does not wait for the whole prompt (81 s on a 20,000-
    character request): it is read one n_batch chunk at a time, and the next call still works."""
    fresh = Engine(bundled_model, EngineSettings(n_ctx=2048, n_batch=64))
    fresh.load()
    try:
        long_ask = [{"role": "user", "content": "Sum these numbers: " + " ".join(str(i) for i in range(300))}]
        prompt = len(fresh.tokenize_chat(long_ask)[0])
        assert prompt > 4 * 64
        cancel = threading.Event()
        cancel.set()  # pressed before the prompt is read: only its first chunk is
        pieces = list(fresh.stream_chat(long_ask, GREEDY, cancel))
        assert pieces == [] and fresh.last_stats.finish_reason == "cancelled"
        assert fresh._llm.n_tokens <= 64 < prompt
        reply, stats = fresh.chat(long_ask, replace(GREEDY, max_tokens=8))
        assert reply.strip() and stats.finish_reason in {"stop", "length"}
    finally:
        fresh.close()


def test_cancel_stops_within_a_token(engine: Engine) -> None:
    cancel = threading.Event()
    pieces = []
    for piece in engine.stream_chat(ASK, GenerationSettings(temperature=0.0, max_tokens=200), cancel):
        pieces.append(piece)
        cancel.set()
    assert len(pieces) == 1
    assert engine.last_stats.finish_reason == "cancelled"


# The trace sees the model's scores before llama.cpp's repeat penalty, so these tests sample without one.
PLAIN_GREEDY = replace(GREEDY, repeat_penalty=1.0)


def test_trace_records_the_choice_taken_at_every_step(engine: Engine) -> None:
    trace = ReplyTrace(top_k=3)
    text, stats = engine.chat(ASK, PLAIN_GREEDY, trace=trace)
    assert len(trace.ranked) == stats.completion_tokens
    assert len(trace.tokens) == len(trace.ranked) - 1  # the last token is sampled, never fed back
    # Greedy: the token taken is the first choice recorded, so the record lines up with the reply.
    assert trace.tokens == [choices[0][0] for choices in trace.ranked[:-1]]
    assert engine.detokenize(trace.tokens) == text[: len(engine.detokenize(trace.tokens))]
    for choices in trace.ranked:
        probabilities = [p for _, p in choices]
        assert len(choices) == 3 and probabilities == sorted(probabilities, reverse=True)
        assert 0 < sum(probabilities) <= 1.0 + 1e-6
    assert 0 <= trace.margin(0) <= 1


def test_a_branch_continues_from_given_reply_tokens(engine: Engine) -> None:
    trace = ReplyTrace()
    text, _ = engine.chat(ASK, PLAIN_GREEDY, trace=trace)
    step = min(range(len(trace.tokens)), key=trace.margin)  # where the model was least sure
    prompt_tokens = len(engine.tokenize_chat(ASK)[0])

    same = trace.branch(step, rank=0)
    rest, stats = engine.chat(ASK, PLAIN_GREEDY, continue_from=same)
    assert stats.prompt_tokens == prompt_tokens + len(same)
    assert stats.prompt_tokens_evaluated <= 2  # the shared prefix is still in the KV cache
    assert (engine.detokenize(same) + rest).startswith(text)  # it may run on: max_tokens counts anew

    other = trace.branch(step, rank=1)
    assert other[:-1] == same[:-1] and other[-1] != same[-1]
    rest, stats = engine.chat(ASK, PLAIN_GREEDY, continue_from=other)
    assert stats.prompt_tokens == prompt_tokens + len(other) and stats.prompt_tokens_evaluated <= 2
    assert stats.completion_tokens > 0
    # Not a text comparison: the runner-up token's text may begin with the first choice's.
    assert engine.detokenize(other) != engine.detokenize(same)
    with pytest.raises(IndexError):
        trace.branch(len(trace.ranked), rank=1)


def test_calls_are_serialized(engine: Engine) -> None:
    spans: dict[str, tuple[float, float]] = {}

    def run(name: str) -> None:
        start = None
        for _ in engine.stream_chat(ASK, GenerationSettings(temperature=0.0, max_tokens=16)):
            start = start or time.perf_counter()
        spans[name] = (start, time.perf_counter())

    threads = [threading.Thread(target=run, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    (a0, a1), (b0, b1) = spans["a"], spans["b"]
    assert a1 <= b0 or b1 <= a0  # one stream finished before the other produced a token


def test_context_overflow_is_a_clear_error(bundled_model: Path) -> None:
    small = Engine(bundled_model, EngineSettings(n_ctx=128))
    small.load()
    try:
        long = [{"role": "user", "content": "word " * 400}]
        with pytest.raises(ContextOverflowError, match=r"Requested tokens \(\d+\) exceed context window of"):
            small.chat(long, GREEDY)
        text, _ = small.chat([{"role": "user", "content": "hi"}], GenerationSettings(max_tokens=4))
        assert isinstance(text, str)  # still usable after the error
    finally:
        small.close()


def test_out_of_memory_load_retries_with_fewer_layers(bundled_model: Path) -> None:
    """A GPU that runs out of memory above 10 layers (simulated at the loader: no GPU here)."""
    metered = _metered_llama_class()
    attempts: list[int] = []

    def loader(**kwargs):
        attempts.append(kwargs["n_gpu_layers"])
        if kwargs["n_gpu_layers"] > 10:
            raise ValueError("Failed to load model from file: CUDA out of memory")
        return metered(**kwargs)

    engine = Engine(
        bundled_model,
        EngineSettings(n_ctx=512),
        gpu_probe=lambda: gpu_state(free=8 * 2**30),
        llama_factory=loader,
    )
    messages: list[str] = []
    report = engine.load(on_message=messages.append)
    try:
        assert attempts[0] == 31 and report.plan.n_gpu_layers == 31
        assert report.n_gpu_layers == attempts[-1] <= 10
        assert attempts == sorted(attempts, reverse=True) and len(attempts) > 1
        assert any("retrying with" in m for m in report.messages)
        assert engine.chat(ASK, GenerationSettings(max_tokens=4))[0] is not None
    finally:
        engine.close()


def test_not_loaded_is_an_error(bundled_model: Path) -> None:
    with pytest.raises(EngineError, match="not loaded"):
        list(Engine(bundled_model).stream_chat(ASK))


@pytest.mark.parametrize("case", ["missing", "text", "truncated", "too_big"])
def test_bad_model_files_fail_cleanly(tmp_path: Path, case: str) -> None:
    if case == "missing":
        path, expected = tmp_path / "nope.gguf", "not found"
    elif case == "text":
        path, expected = tmp_path / "m.gguf", "not a GGUF"
        path.write_text("hello" * 100)
    elif case == "truncated":
        path, expected = llama_like(tmp_path / "m.gguf", truncate_by=4096), "truncated"
    else:  # claims ~60 GiB of F32 weights (sparse on disk): more than this machine's memory
        path, expected = llama_like(tmp_path / "m.gguf", n_layer=8, n_embd=16384, n_ff=65536), "does not fit"
    started = time.perf_counter()
    with pytest.raises(ModelLoadError, match=expected):
        Engine(path).load()
    assert time.perf_counter() - started < 5


def test_a_two_cpu_machine_decodes_on_both_unless_told(monkeypatch) -> None:
    # llama.cpp's own default is half the CPUs: one thread on a 2-CPU machine, 7.3 tokens/s for the
    # 1.5B against 10.9 on two.
    import os

    monkeypatch.delenv("LOCALCREW_THREADS", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert EngineSettings().n_threads == 2
    monkeypatch.setattr(os, "cpu_count", lambda: 16)
    assert EngineSettings().n_threads is None  # llama.cpp's choice: half, sparing hyperthread pairs
    monkeypatch.setenv("LOCALCREW_THREADS", "1")
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert EngineSettings().n_threads == 1
