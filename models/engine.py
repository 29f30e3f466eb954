"""One resident GGUF model behind a lock: load with an offload plan, stream chat completions.

The prompt is rendered with the model's own chat template and tokenized here, so every call knows
exactly how many prompt tokens it sent; a counting `eval` tells how many llama.cpp really
processed. llama-cpp-python keeps the previous call's tokens in its KV cache and only evaluates
what differs, which is what makes a follow-up turn cheap.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from models import llama_libs  # noqa: I001  (before numpy, which prompt_lookup imports)
from models.chat_engine import (
    CallStats,
    ChatEngine,
    ChatStream,
    ContextOverflowError,
    EngineError,
    EngineSettings,
    GenerationSettings,
    JsonSchema,
    Message,
    ModelLoadError,
    PromptCancelledError,
)
from models.context_size import MIN_N_CTX, plan_with_context
from models.gguf_reader import GGUFError, GGUFInfo, read_gguf
from models.memory import available_ram_bytes
from models.offload_planner import OffloadPlan, PlanSettings
from models.prompt_lookup import PromptLookup
from models.repetition import loop_start
from models.reply_splice import Exchange, splice
from models.reply_trace import ReplyTrace, recording_processors
from models.vram_probe import GpuState, probe_gpus

log = logging.getLogger(__name__)

REPETITION_CHECK_EVERY = 16  # pieces between loop checks: a loop costs at most this many tokens more


@dataclass
class LoadReport:
    path: Path
    plan: OffloadPlan
    load_s: float
    n_gpu_layers: int  # what was really used (retries can lower it)
    gpu_offload_supported: bool
    messages: list[str] = field(default_factory=list)


LlamaFactory = Callable[..., Any]


def _metered_llama_class() -> type:
    """A Llama that counts the tokens each eval processes, checks grammars after sampling and can
    draft (models.metered_llama; deferred import: llama_cpp is heavy)."""
    from models.metered_llama import metered_llama_class

    return metered_llama_class()


def llama_supports_gpu() -> bool:
    import llama_cpp

    return bool(llama_cpp.llama_supports_gpu_offload())


def _is_oom(exc: BaseException) -> bool:
    text = str(exc).lower()
    return any(word in text for word in ("out of memory", "failed to load", "failed to create", "alloc"))


class Engine(ChatEngine):
    """Load once, then serve streaming chat calls one at a time (a models.chat_engine.ChatEngine)."""

    backend = "local"
    # True: llama-cpp-python's own chain, the grammar over the whole vocabulary before sampling
    # (kept to compare with; models.grammar_sampling checks the sampled token instead).
    grammar_first = False
    # What drafts when GenerationSettings.prompt_lookup is on (bench.engine swaps in llama-cpp-python's).
    draft_factory: Callable[[], Any] = PromptLookup

    def __init__(
        self,
        model_path: str | Path,
        settings: EngineSettings = EngineSettings(),
        *,
        gpu_probe: Callable[[], GpuState] = probe_gpus,
        llama_factory: LlamaFactory | None = None,
    ) -> None:
        self.model_path = Path(model_path)
        self.settings = settings
        self._requested_n_ctx = settings.n_ctx  # AUTO_N_CTX: each plan chooses again
        self._gpu_probe = gpu_probe
        self._llama_factory = llama_factory
        self._lock = threading.Lock()
        self._llm: Any = None
        self._formatter: Any = None
        self.info: GGUFInfo | None = None
        self.load_report: LoadReport | None = None
        self.last_stats: CallStats | None = None
        self.last_batch: Any = None  # models.batch_decode.BatchRun of the last complete_many
        self._exchange: Exchange | None = None  # the last call's prompt and reply tokens

    # ---------- loading ----------
    def inspect(self) -> GGUFInfo:
        try:
            self.info = read_gguf(self.model_path)
        except GGUFError as exc:
            raise ModelLoadError(str(exc)) from exc
        if self.info.block_count <= 0:
            raise ModelLoadError(f"{self.model_path}: the GGUF has no transformer blocks; not a chat model")
        return self.info

    def plan(self, gpus: GpuState | None = None) -> OffloadPlan:
        """The offload plan; with no n_ctx given, also the context, which settings.n_ctx then holds."""
        info = self.info or self.inspect()
        plan_settings = PlanSettings(
            n_ctx=self._requested_n_ctx or MIN_N_CTX,  # replaced by plan_with_context's choice
            kv_type=self.settings.kv_type,
            n_ubatch=self.settings.n_batch,
            n_gpu_layers_override=self.settings.n_gpu_layers,
        )
        plan = plan_with_context(
            info, gpus or self._gpu_probe(), self._requested_n_ctx, plan_settings, available_ram_bytes()
        )
        if self._llm is None:  # a loaded model keeps the context it was loaded with
            self.settings = replace(self.settings, n_ctx=plan.n_ctx)
        return plan

    def load(self, on_message: Callable[[str], None] | None = None) -> LoadReport:
        """Plan with VRAM read right now, check system memory, load; on OOM retry with fewer layers."""
        say = on_message or (lambda text: log.info("%s", text))
        info = self.inspect()
        plan = self.plan()  # re-reads free VRAM just before loading
        if plan.warnings and any("system memory" in w for w in plan.warnings):
            raise ModelLoadError(f"{info.name} does not fit: {plan.warnings[-1]}")
        messages = [plan.explanation[-1]]
        say(messages[0])
        if llama_libs.NUMPY_CAME_FIRST and llama_supports_gpu():
            say(
                "warning: numpy was imported before llama_cpp in this process; CUDA builds of "
                "llama.cpp have crashed loading a model so (import models.engine first)"
            )
        layers = plan.n_gpu_layers
        started = time.perf_counter()
        while True:
            try:
                self._llm = self._construct(layers, plan)
                break
            except (ValueError, RuntimeError, MemoryError) as exc:
                if layers <= 0 or not _is_oom(exc):
                    raise ModelLoadError(f"Could not load {self.model_path.name}: {exc}") from exc
                fewer = max(0, layers - max(1, layers // 4))
                note = f"Loading with {layers} GPU layers ran out of memory; retrying with {fewer}."
                messages.append(note)
                say(note)
                layers = fewer
        self._formatter = self._chat_formatter()
        self.load_report = LoadReport(
            path=self.model_path,
            plan=plan,
            load_s=time.perf_counter() - started,
            n_gpu_layers=layers,
            gpu_offload_supported=llama_supports_gpu(),
            messages=messages,
        )
        return self.load_report

    def _construct(self, n_gpu_layers: int, plan: OffloadPlan) -> Any:
        import llama_cpp

        from models.llama_cpu_guard import guard_llama

        guard_llama()

        # The KV types are those of models.offload_planner.KV_TYPES, named as llama.cpp names them.
        kv_type = getattr(llama_cpp, f"GGML_TYPE_{self.settings.kv_type.upper()}")
        factory = self._llama_factory or _metered_llama_class()
        llm = factory(
            model_path=str(self.model_path),
            n_ctx=self.settings.n_ctx,
            n_batch=self.settings.n_batch,
            n_ubatch=self.settings.n_batch,
            n_gpu_layers=n_gpu_layers,
            n_threads=self.settings.n_threads,
            seed=self.settings.seed,
            type_k=kv_type,
            type_v=kv_type,
            flash_attn=plan.flash_attn,
            verbose=False,
        )
        if not hasattr(llm, "eval_sizes"):
            llm.eval_sizes = []
        if not hasattr(llm, "sampled"):
            llm.sampled = []
        return llm

    def _chat_formatter(self) -> Any:
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        template = self._llm.metadata.get("tokenizer.chat_template")
        if not template:
            raise ModelLoadError(f"{self.model_path.name} has no chat template; it is not a chat model")
        eos_id, bos_id = self._llm.token_eos(), self._llm.token_bos()
        text_of = self._llm._model.token_get_text  # noqa: SLF001 - same call llama_cpp makes
        return Jinja2ChatFormatter(
            template=template,
            eos_token=text_of(eos_id) if eos_id != -1 else "",
            bos_token=text_of(bos_id) if bos_id != -1 else "",
            stop_token_ids=[eos_id],
        )

    @property
    def loaded(self) -> bool:
        return self._llm is not None

    def close(self) -> None:
        with self._lock:
            if self._llm is not None:
                with contextlib.suppress(Exception):
                    self._llm.close()
                self._llm = None

    # ---------- generation ----------
    def tokenize_chat(self, messages: list[Message]) -> tuple[list[int], list[str]]:
        """The exact prompt tokens for these messages, and the template's own stop strings."""
        self._require_loaded()
        rendered = self._formatter(messages=messages)
        tokens = self._llm.tokenize(
            rendered.prompt.encode("utf-8"), add_bos=not rendered.added_special, special=True
        )
        stops = rendered.stop if isinstance(rendered.stop, list) else [rendered.stop] if rendered.stop else []
        return tokens, [s for s in stops if s]

    def _prompt_tokens(self, messages: list[Message]) -> tuple[list[int], list[str], str]:
        """As tokenize_chat, but the previous reply keeps its own token ids (models.reply_splice),
        so the KV cache holding them is reused; also the rendered prompt."""
        llm = self._llm
        rendered = self._formatter(messages=messages)
        stops = rendered.stop if isinstance(rendered.stop, list) else [rendered.stop]
        tokens = splice(
            self._exchange,
            rendered.prompt,
            lambda token: llm.detokenize([token]),
            lambda text: llm.tokenize(text, add_bos=False, special=True),
        )
        if tokens is None:
            prompt = rendered.prompt.encode("utf-8")
            tokens = llm.tokenize(prompt, add_bos=not rendered.added_special, special=True)
        return tokens, [s for s in stops if s], rendered.prompt

    def forget_cache(self) -> None:
        """The next call evaluates its whole prompt (comparisons between decode paths start alike:
        logits of a token evaluated alone can differ in the last bits from the same token in a batch)."""
        self._require_loaded()
        with self._lock:
            self._llm.reset()
            self._exchange = None

    def count_tokens(self, messages: list[Message]) -> int:
        return len(self.tokenize_chat(messages)[0])

    def stream_chat(
        self,
        messages: list[Message],
        gen: GenerationSettings = GenerationSettings(),
        cancel: threading.Event | None = None,
        grammar: Any = None,
        *,
        schema: JsonSchema | None = None,
        continue_from: Sequence[int] = (),
        trace: ReplyTrace | None = None,
    ) -> ChatStream:
        """The text pieces as they are generated; the stream's `stats` (and `last_stats`) are set
        when it ends. `schema`: the reply is JSON following it (a grammar built from it).

        `continue_from`: reply tokens already decided (a branch of a traced reply); the stream
        yields only what follows them. `trace`: filled with the model's top choices at each step.
        Calls are serialized: a second caller waits here until the first stream finishes.
        """
        if schema is not None and grammar is None:
            from models.schema_grammar import schema_grammar

            grammar = schema_grammar(schema)

        def pieces() -> Iterator[str]:  # runs on the first next(), once `reply` exists
            self._require_loaded()
            with self._lock:
                before = self.last_stats
                try:
                    yield from self._stream_locked(messages, gen, cancel, grammar, list(continue_from), trace)
                finally:  # still under the lock: no other call can have replaced last_stats
                    reply.stats = self.last_stats if self.last_stats is not before else None

        reply = ChatStream(pieces())
        return reply

    def complete_many(
        self,
        messages: list[Message],
        gens: Sequence[GenerationSettings],
        cancel: threading.Event | None = None,
        grammar: Any = None,
        *,
        schema: JsonSchema | None = None,
    ) -> list[tuple[str, CallStats]]:
        """One reply per settings to the same messages, decoded together in one batch
        (models.batch_decode): the prompt is evaluated once, and each settings' seed, temperature,
        max_tokens and stop strings apply to its own reply. Same results as chat() once per
        settings (at temperature 0, the same text), in much less time than that on a CPU.

        One settings is a plain chat() call; where llama.cpp cannot make the batch's context (too
        little memory) the replies are decoded one by one. `last_stats` sums the batch: its
        decode_tokens_per_s is the tokens of all replies per second."""
        from models.batch_decode import BatchUnavailableError

        gens = list(gens)
        if len(gens) <= 1:
            return [self.chat(messages, gen, cancel, grammar, schema=schema) for gen in gens]
        if schema is not None and grammar is None:
            from models.schema_grammar import schema_grammar

            grammar = schema_grammar(schema)
        self._require_loaded()
        with self._lock:
            try:
                return self._complete_many_locked(messages, gens, cancel, grammar)
            except BatchUnavailableError as exc:
                log.warning("%s; decoding the %d replies one by one", exc, len(gens))
        return [self.chat(messages, gen, cancel, grammar) for gen in gens]

    def _complete_many_locked(
        self,
        messages: list[Message],
        gens: list[GenerationSettings],
        cancel: threading.Event | None,
        grammar: Any,
    ) -> list[tuple[str, CallStats]]:
        from models.batch_decode import decode_together

        llm = self._llm
        tokens, template_stops, _ = self._prompt_tokens(messages)
        n_ctx = llm.n_ctx()
        if len(tokens) >= n_ctx:
            raise ContextOverflowError(f"Requested tokens ({len(tokens)}) exceed context window of {n_ctx}")
        room = n_ctx - len(tokens)  # each reply fits the context, as one chat() reply would
        capped = [replace(gen, max_tokens=max(1, min(gen.max_tokens, room))) for gen in gens]
        total = CallStats(prompt_tokens=len(tokens))
        self.last_stats = total
        llm.eval_sizes = []
        llm.draft_model = None
        self._exchange = None  # the cache holds this prompt now, and no one reply after it
        run = decode_together(llm, tokens, capped, template_stops, cancel, grammar)
        self.last_batch = run
        replies = []
        for seq in run.sequences:
            stats = CallStats(
                prompt_tokens=len(tokens),
                prompt_tokens_evaluated=run.prompt_tokens_evaluated,  # shared by all the replies
                completion_tokens=len(seq.tokens),
                time_to_first_token_s=run.first_token_at - run.started,
                total_s=seq.ended_at - run.started,
                finish_reason=seq.finish_reason,
            )
            decode_s = seq.ended_at - run.first_token_at
            stats.decode_tokens_per_s = (len(seq.tokens) - 1) / decode_s if decode_s > 0 else 0.0
            replies.append((seq.text, stats))
        ended = max(seq.ended_at for seq in run.sequences)
        total.prompt_tokens_evaluated = run.prompt_tokens_evaluated
        total.completion_tokens = sum(len(seq.tokens) for seq in run.sequences)
        total.time_to_first_token_s = run.first_token_at - run.started
        total.total_s = ended - run.started
        after_first = sum(max(len(seq.tokens) - 1, 0) for seq in run.sequences)
        decode_s = ended - run.first_token_at
        total.decode_tokens_per_s = after_first / decode_s if decode_s > 0 else 0.0
        total.finish_reason = "batch"
        return replies

    def detokenize(self, tokens: Sequence[int]) -> str:
        """The text of some tokens (a branch's reply so far)."""
        self._require_loaded()
        return self._llm.detokenize(list(tokens)).decode("utf-8", errors="replace")

    def _stream_locked(
        self,
        messages: list[Message],
        gen: GenerationSettings,
        cancel: threading.Event | None,
        grammar: Any,
        continue_from: list[int],
        trace: ReplyTrace | None,
    ) -> Iterator[str]:
        llm = self._llm
        tokens, template_stops, prompt_text = self._prompt_tokens(messages)
        prompt_tokens = tuple(tokens)
        tokens += continue_from
        n_ctx = llm.n_ctx()
        if len(tokens) >= n_ctx:
            raise ContextOverflowError(f"Requested tokens ({len(tokens)}) exceed context window of {n_ctx}")
        stats = CallStats(prompt_tokens=len(tokens))
        self.last_stats = stats
        llm.eval_sizes = []
        llm.sampled = []
        # The trace records once per sampling pass; the check-second sampler can take two.
        llm.grammar_first = self.grammar_first or trace is not None
        llm.draft_model = self.draft_factory() if gen.prompt_lookup else None
        llm.cancel = cancel
        self._exchange = None
        started = time.perf_counter()
        first_at: float | None = None
        sampling = gen.llama_kwargs() | {"max_tokens": min(gen.max_tokens, n_ctx - len(tokens))}
        recorder = recording_processors(trace, len(tokens)) if trace is not None else None
        stream = llm.create_completion(
            prompt=tokens,
            stream=True,
            stop=list(gen.stop) + template_stops,
            grammar=grammar,
            logits_processor=recorder,
            **sampling,
        )
        reply: list[str] = []
        try:
            for chunk in stream:
                if cancel is not None and cancel.is_set():
                    stats.finish_reason = "cancelled"
                    break
                choice = chunk["choices"][0]
                text = choice.get("text") or ""
                if choice.get("finish_reason"):
                    stats.finish_reason = choice["finish_reason"]
                if text:
                    if first_at is None:
                        first_at = time.perf_counter()
                    yield text
                    reply.append(text)
                    if len(reply) % REPETITION_CHECK_EVERY == 0 and loop_start("".join(reply)) is not None:
                        stats.finish_reason = "repetition"
                        break
        except PromptCancelledError:  # Stop while the prompt was read: no reply, as cancelled
            stats.finish_reason = "cancelled"
        except ValueError as exc:
            if "exceed context window" in str(exc):
                raise ContextOverflowError(str(exc)) from exc
            raise
        finally:
            with contextlib.suppress(Exception):
                stream.close()  # stops llama.cpp generating if the consumer left early
            llm.draft_model = None
            llm.cancel = None
            if not continue_from and llm.sampled:
                self._exchange = Exchange(prompt_text, prompt_tokens, tuple(llm.sampled))
            self._finish_stats(stats, started, first_at, llm.eval_sizes, len(llm.sampled))

    @staticmethod
    def _finish_stats(
        stats: CallStats, started: float, first_at: float | None, evals: list[int], sampled: int = 0
    ) -> None:
        ended = time.perf_counter()
        stats.total_s = ended - started
        stats.prompt_tokens_evaluated = evals[0] if evals else 0
        # One eval per generated token after the first, unless drafting checked several at once;
        # then the sampled ids count them.
        decode_steps = max(sampled - 1 if sampled else len(evals) - 1, 0)
        stats.completion_tokens = decode_steps + (1 if first_at is not None else 0)
        stats.time_to_first_token_s = (first_at or ended) - started
        decode_time = ended - (first_at or ended)
        stats.decode_tokens_per_s = decode_steps / decode_time if decode_time > 0 else 0.0

    def _require_loaded(self) -> None:
        if self._llm is None:
            raise EngineError("The model is not loaded yet.")
