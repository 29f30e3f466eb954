"""Several replies to one prompt decoded together: the prompt evaluated once, one batch per step.

Decoding a model on a CPU is bound by reading its weights, and a batch of N next tokens reads them
once, so N replies cost much less than N times one (as llama.cpp's examples/batched shows).

How, with llama-cpp-python's low-level API:
- the engine's own context evaluates the prompt as a chat() call would (so its prefix cache serves
  both kinds of call and holds the prompt afterwards), and every sequence samples its first token
  from those logits;
- a second context on the same model, for N sequences with a KV stream each (kv_unified off),
  receives the prompt's KV state by copy (llama_state_seq_get_data/set_data: no re-evaluation; a
  model whose state has another layout evaluates the prompt there instead), and
  llama_memory_seq_cp copies that stream to every other sequence's;
- each step decodes one token per unfinished sequence in one llama_decode; every sequence samples
  its own row of logits with its own chain (seed, temperature, repeat penalty, optional grammar)
  and ends on its own (end of generation, stop strings, max tokens, a repetition loop);
- the second context is freed at the end: nothing of the batch stays in the engine's context.

With BACKEND_SAMPLING on, on a GPU (the model's layers there, no grammar), each sequence's chain
is attached to the batch context (llama.cpp's backend sampling, marked experimental there): it runs
in the step's graph on the GPU, and only the chosen tokens come back instead of every row's logits
over the whole vocabulary; llama_sampler_sample returns that token and advances the chain as before.
Its softmax rounds as the GPU's does, so there a sampled reply can part from chat()'s. Off until a
GPU run has measured it (bench/results/2026-11-28-gpu-batch holds the check, not yet run).

Each sequence attends over its own stream, laid out as a single decode lays out its cache, and the
prompt is evaluated in chat()'s chunks, so at temperature 0 every reply is the one chat() gives
(tests/test_batch_decode.py) where llama.cpp computes a row of a batch as it computes a lone row.
Where it repacks weights for its CPU kernels (Q4_0/Q4_K/IQ4_NL on AVX2 without AMX), a batch of 4
or more rows takes another kernel (gemm, not gemv) whose sums round differently in the last bits,
so a greedy reply can part from chat()'s after some tokens, as two near-equal choices flip.
"""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from models.grammar_sampling import CheckedSampler, grammar_sampler
from models.repetition import loop_start
from models.step_threads import StepThreads

if TYPE_CHECKING:
    from models.chat_engine import GenerationSettings

REPETITION_CHECK_EVERY = 16  # tokens between loop checks, as in Engine.stream_chat
KV_PAD = 256  # llama.cpp rounds each sequence's KV stream up to a multiple of this
STATE_HEADER = 8  # a sequence's saved state: u32 magic, i32 sequence id, then the KV cache's own
BACKEND_SAMPLING = False  # chains in the GPU's graph (module doc); bench.engine --gpu-sampling


class BatchUnavailableError(RuntimeError):
    """This model or machine cannot hold N sequences in one context; decode them one by one."""


@dataclass
class Decoded:
    """One sequence's reply."""

    tokens: list[int]
    text: str
    finish_reason: str  # "stop", "length", "repetition" or "cancelled"
    ended_at: float  # time.perf_counter() when it finished


@dataclass
class BatchRun:
    """What one batch decode did: the replies, in the order of the settings given, and its timing."""

    sequences: list[Decoded]
    prompt_tokens: int
    prompt_tokens_evaluated: int  # the rest came from the engine's cache
    started: float
    first_token_at: float  # when every sequence had its first token (all from the prompt's logits)
    decode_steps: int = 0  # llama_decode calls after the prompt
    pieces: dict[int, bytes] = field(default_factory=dict)  # token id -> its text, looked up once
    open_s: float = 0.0  # making the batch context, filling it with the prompt, freeing it
    decode_s: float = 0.0  # in llama_decode, after the prompt
    sample_s: float = 0.0  # sampling each step's tokens and checking the replies for their ends
    backend_sampling: bool = False  # the chains ran on the GPU
    threads: int = 0  # the thread count its steps last ran on


class _Sequence:
    """One reply being decoded: its sampler, its text so far and why it ended."""

    def __init__(self, seq_id: int, gen: GenerationSettings, stops: Sequence[str], sampler: Any) -> None:
        self.seq_id = seq_id
        self.max_tokens = gen.max_tokens
        self.stops = [stop.encode("utf-8") for stop in stops if stop]
        self.sampler = sampler
        self.tokens: list[int] = []
        self.data = bytearray()
        self.finish_reason: str | None = None
        self.ended_at = 0.0
        self.row = 0  # the row of the last batch's logits this sequence samples from

    @property
    def done(self) -> bool:
        return self.finish_reason is not None

    def finish(self, reason: str) -> None:
        self.finish_reason = reason
        self.ended_at = time.perf_counter()

    def take(self, token: int, piece: bytes, end_of_generation: bool) -> None:
        """Add a sampled token; in the order llama-cpp-python checks: end, stop string, length."""
        if end_of_generation:  # the end token itself is not part of the reply
            self.finish("stop")
            return
        self.tokens.append(token)
        self.data += piece
        found = [at for at in (self.data.find(stop) for stop in self.stops) if at >= 0]
        if found:
            del self.data[min(found) :]
            self.finish("stop")
        elif len(self.tokens) >= self.max_tokens:
            self.finish("length")
        elif len(self.tokens) % REPETITION_CHECK_EVERY == 0 and loop_start(self.text()) is not None:
            self.finish("repetition")

    def text(self) -> str:
        return self.data.decode("utf-8", errors="ignore")  # as llama-cpp-python decodes a reply


@dataclass
class _Context:
    """A raw llama_context in the shape llama-cpp-python's samplers read (`.ctx`)."""

    ctx: Any
    samplers: Any = None  # the chains attached to it, kept alive as long as it is


def sampler_for(
    llm: Any, gen: GenerationSettings, grammar: Any = None, sampled: list[int] | None = None
) -> Any:
    """The chain llama-cpp-python builds for a completion (Llama._init_sampler), with this
    sequence's own seed: repeat penalty over the reply, then greedy, or top-k, top-p, min-p,
    temperature and a seeded draw. The grammar checks the chosen token, as in chat(). The chain's
    typical sampler at 1.0 is left out: it changes nothing, and has no GPU form (module doc)."""
    from llama_cpp._internals import LlamaSampler

    chain = LlamaSampler()
    chain.add_penalties(
        n_vocab=llm.n_vocab(),
        penalty_last_n=llm.last_n_tokens_size,
        penalty_repeat=gen.repeat_penalty,
        penalty_freq=0.0,
        penalty_present=0.0,
    )
    if gen.temperature <= 0.0:
        chain.add_greedy()
    else:
        chain.add_top_k(gen.top_k)
        chain.add_top_p(gen.top_p, 1)
        chain.add_min_p(gen.min_p, 1)
        chain.add_temp(gen.temperature)
        chain.add_dist(gen.seed)
    checker = grammar_sampler(llm._model, grammar) if grammar is not None else None  # noqa: SLF001
    return CheckedSampler(chain, checker, llm.n_vocab(), sampled if sampled is not None else [])


def prepare_prompt(llm: Any, tokens: Sequence[int]) -> int:
    """Evaluate the prompt in the engine's context as Llama.generate would (its cached prefix
    reused, at least the last token evaluated so its logits are fresh); returns how many tokens
    that evaluated. Chunked as chat() chunks it, the prompt's cache and first logits are chat()'s."""
    cached = llm.input_ids[: llm.n_tokens].tolist()
    keep = min(llm.longest_token_prefix(cached, tokens), len(tokens) - 1)
    llm._ctx.kv_cache_seq_rm(-1, keep, -1)  # noqa: SLF001 - as Llama.generate trims its cache
    llm.n_tokens = keep
    llm.eval(list(tokens[keep:]))
    # A later generate re-evaluates the last token rather than trusting logits it did not see made.
    llm._requires_eval = True  # noqa: SLF001
    return len(tokens) - keep


def open_context(llm: Any, n_seq: int, cells_per_seq: int, chains: Sequence[Any] = ()) -> _Context:
    """A second context on the engine's model: `n_seq` KV streams of `cells_per_seq` cells, the
    engine's other settings (KV type, flash attention, threads; the steps' count is chosen as they
    run). `chains`: sequence i's sampler chain, to run in the graph (module doc)."""
    import llama_cpp

    params = llama_cpp.llama_context_params.from_buffer_copy(llm.context_params)
    per_seq = -(-cells_per_seq // KV_PAD) * KV_PAD
    params.n_ctx = per_seq * n_seq
    params.n_seq_max = n_seq
    params.kv_unified = False  # a stream each: a sequence's cache is laid out as in a single decode
    params.n_batch = max(params.n_batch, n_seq)
    params.n_ubatch = max(params.n_ubatch, n_seq)
    configs = None
    if chains:
        configs = (llama_cpp.llama_sampler_seq_config * len(chains))()
        for seq_id, chain in enumerate(chains):
            configs[seq_id].seq_id = seq_id
            configs[seq_id].sampler = ctypes.cast(chain, ctypes.c_void_p)
        params.samplers = configs
        params.n_samplers = len(chains)
    ctx = llama_cpp.llama_init_from_model(llm._model.model, params)  # noqa: SLF001
    if not ctx:
        raise BatchUnavailableError(f"llama.cpp could not create a context for {n_seq} sequences")
    return _Context(ctx, configs)


def samples_on_gpu(llm: Any, seqs: Sequence[_Sequence]) -> bool:
    """Whether the sequences' chains can run in the graph: a GPU build with the model's layers
    there, and no grammar (a grammar checks tokens on the CPU)."""
    import llama_cpp

    return (
        BACKEND_SAMPLING
        and llm.model_params.n_gpu_layers != 0
        and bool(llama_cpp.llama_supports_gpu_offload())
        and all(seq.sampler.grammar is None for seq in seqs)
    )


def copy_sequence(source: Any, target: Any, n_stream: int) -> bool:
    """Sequence 0's KV cells from the engine's context (one stream) into stream 0 of the batch
    context (`n_stream` streams; same model, same KV type). False where the state's layout is not
    the plain one (a sliding-window or recurrent model): the caller evaluates the prompt instead."""
    import llama_cpp

    size = llama_cpp.llama_state_seq_get_size(source, 0)
    extra = 4 * (n_stream - 1)
    # The state is a magic number, the sequence id, the KV cache's stream count, then each stream's
    # cells. Written from one stream, it reads into n streams once the count says n and the other
    # streams say "no cells" (a zero each, at the end: the zeroed room left after the data).
    buffer = (ctypes.c_uint8 * (size + extra))()
    written = llama_cpp.llama_state_seq_get_data(source, buffer, size, 0)
    if written < STATE_HEADER + 4:
        return False
    count = ctypes.c_uint32.from_buffer(buffer, STATE_HEADER)
    if count.value != 1:
        return False
    count.value = n_stream
    return llama_cpp.llama_state_seq_set_data(target, buffer, written + extra, 0) > 0


class _Batch:
    """A llama_batch of up to `capacity` tokens, one sequence id each."""

    def __init__(self, capacity: int) -> None:
        import llama_cpp

        self._lib = llama_cpp
        self.batch = llama_cpp.llama_batch_init(capacity, 0, 1)

    def fill(self, entries: Sequence[tuple[int, int, int]], logits: bool = True) -> None:
        """(token, position, sequence id) per row; `logits`: whether the rows' logits are wanted."""
        batch = self.batch
        batch.n_tokens = len(entries)
        for row, (token, pos, seq_id) in enumerate(entries):
            batch.token[row] = token
            batch.pos[row] = pos
            batch.n_seq_id[row] = 1
            batch.seq_id[row][0] = seq_id
            batch.logits[row] = logits

    def decode(self, ctx: _Context) -> None:
        code = self._lib.llama_decode(ctx.ctx, self.batch)
        if code != 0:
            raise RuntimeError(f"llama_decode failed with code {code} in a batch of {self.batch.n_tokens}")

    def close(self) -> None:
        self._lib.llama_batch_free(self.batch)


def decode_together(
    llm: Any,
    prompt: Sequence[int],
    gens: Sequence[GenerationSettings],
    stops: Sequence[str] = (),
    cancel: threading.Event | None = None,
    grammar: Any = None,
) -> BatchRun:
    """Decode len(gens) replies to `prompt` (token ids) together on `llm`, the engine's Llama.

    Each settings' seed, temperature, max_tokens and stop strings apply to its own sequence (plus
    `stops`, the chat template's). Raises BatchUnavailableError when the batch context cannot be
    made (too little memory): the caller decodes one by one instead."""
    started = time.perf_counter()
    evaluated = prepare_prompt(llm, prompt)
    run = BatchRun([], len(prompt), evaluated, started, 0.0)
    seqs = [
        _Sequence(index, gen, list(gen.stop) + list(stops), sampler_for(llm, gen, grammar))
        for index, gen in enumerate(gens)
    ]
    try:
        # Every first token from the prompt's logits in the engine's context, as chat()'s.
        _sample(llm, llm._ctx, seqs, run, -1)  # noqa: SLF001
        run.first_token_at = time.perf_counter()
        if any(not seq.done for seq in seqs):
            _continue_in_batch(llm, prompt, seqs, cancel, run)
    finally:
        for seq in seqs:
            seq.sampler.close()
    run.sequences = [
        Decoded(seq.tokens, seq.text(), seq.finish_reason or "stop", seq.ended_at) for seq in seqs
    ]
    return run


def _continue_in_batch(
    llm: Any, prompt: Sequence[int], seqs: list[_Sequence], cancel: threading.Event | None, run: BatchRun
) -> None:
    """The prompt's cache into a context of its own per sequence, then the steps, all in one batch."""
    import llama_cpp

    longest = max(seq.max_tokens for seq in seqs)
    started = time.perf_counter()
    run.backend_sampling = samples_on_gpu(llm, seqs)
    chains = [seq.sampler.chain.sampler for seq in seqs] if run.backend_sampling else []
    ctx = open_context(llm, len(seqs), len(prompt) + longest + 1, chains)
    batch = _Batch(len(seqs))
    try:
        if not copy_sequence(llm.ctx, ctx.ctx, len(seqs)):
            memory = llama_cpp.llama_get_memory(ctx.ctx)
            llama_cpp.llama_memory_seq_rm(memory, 0, -1, -1)
            run.prompt_tokens_evaluated += _evaluate(llm, ctx, prompt)
        memory = llama_cpp.llama_get_memory(ctx.ctx)
        for seq in seqs[1:]:  # a copy of stream 0, done by llama.cpp before the next decode
            llama_cpp.llama_memory_seq_cp(memory, 0, seq.seq_id, -1, -1)
        run.open_s += time.perf_counter() - started
        _generate(llm, ctx, batch, seqs, len(prompt), cancel, run)
    finally:
        started = time.perf_counter()
        batch.close()
        llama_cpp.llama_free(ctx.ctx)
        run.open_s += time.perf_counter() - started


def _evaluate(llm: Any, ctx: _Context, tokens: Sequence[int]) -> int:
    """Evaluate `tokens` into sequence 0 of the batch context, n_batch at a time (the copy from
    the engine's context was not possible)."""
    step = llm.n_batch
    chunk = _Batch(step)
    try:
        for start in range(0, len(tokens), step):
            part = tokens[start : start + step]
            chunk.fill([(token, start + offset, 0) for offset, token in enumerate(part)], logits=False)
            chunk.decode(ctx)
    finally:
        chunk.close()
    return len(tokens)


def _sample(llm: Any, ctx: Any, seqs: list[_Sequence], run: BatchRun, row: int | None = None) -> None:
    """One token for every unfinished sequence, from its row of `ctx`'s logits (or `row`)."""
    import llama_cpp

    vocab = llm._model.vocab  # noqa: SLF001
    for seq in seqs:
        if seq.done:
            continue
        token = seq.sampler.sample(ctx, seq.row if row is None else row)
        if token not in run.pieces:
            run.pieces[token] = llm.detokenize([token])
        seq.take(token, run.pieces[token], llama_cpp.llama_vocab_is_eog(vocab, token))


def _generate(
    llm: Any,
    ctx: _Context,
    batch: _Batch,
    seqs: list[_Sequence],
    position: int,
    cancel: threading.Event | None,
    run: BatchRun,
) -> None:
    """Decode the unfinished sequences' last tokens in one batch, sample each, until all end, on
    whichever thread count runs the steps faster now (models.step_threads)."""
    import llama_cpp

    threads = StepThreads(
        lambda count: llama_cpp.llama_set_n_threads(ctx.ctx, llm.n_threads, count),
        (llm.n_threads_batch, llm.n_threads),
    )
    while True:
        active = [seq for seq in seqs if not seq.done]
        if active and cancel is not None and cancel.is_set():
            for seq in active:
                seq.finish("cancelled")
            return
        if not active:
            return
        for row, seq in enumerate(active):
            seq.row = row
        batch.fill([(seq.tokens[-1], position, seq.seq_id) for seq in active])
        threads.before()
        started = time.perf_counter()
        batch.decode(ctx)
        sampled = time.perf_counter()
        threads.after(sampled - started, len(active))
        run.threads = threads.chosen
        run.decode_s += sampled - started
        run.decode_steps += 1
        position += 1
        _sample(llm, ctx, active, run)
        run.sample_s += time.perf_counter() - sampled
