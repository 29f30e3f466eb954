"""The seam between the crew and a model: what every engine offers, wherever the model runs.

Implementations: `models.engine.Engine` (llama.cpp inside this process, the default),
`models.openai_engine.OpenAIEngine` (any OpenAI-compatible server: llama-server, vLLM, Ollama,
LM Studio, llama_cpp.server) and the tests' scripted fake. The protocol is exactly what the crew
(agents/llm/local_llm.py, agents/run/runner.py), the IDE and the benchmarks use of an engine, so any
of them can stand behind the one crew factory (agents/crew_factory.py).

Statistics travel on the reply (`ChatStream.stats`), not only on the engine: with a server that
batches, two crew runs share one engine and "the last call" is not theirs.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

JsonSchema = dict[str, Any]

# The values and errors every engine speaks, beside the protocol (models.engine re-exports them).
THREADS_ENV = "LOCALCREW_THREADS"

Message = dict[str, str]


class EngineError(RuntimeError):
    """Something the user can act on; the message says what."""


class ModelLoadError(EngineError):
    pass


class ContextOverflowError(EngineError):
    """The prompt does not fit the context window (message keeps llama.cpp's phrasing)."""


class PromptCancelledError(Exception):
    """The prompt's evaluation stopped between two chunks: the caller's cancel was set."""


def _threads_from_env() -> int | None:
    """$LOCALCREW_THREADS, else every CPU where there are only two (None: llama.cpp's choice, half
    the CPUs, which spares hyperthread pairs). On a 2-CPU machine that half was one thread: the
    1.5B decoded 7.3 tokens/s on one and 10.9 on two (2026-11-28)."""
    value = os.environ.get(THREADS_ENV, "").strip()
    if value:
        return int(value)
    return 2 if (os.cpu_count() or 0) == 2 else None


@dataclass(frozen=True)
class EngineSettings:
    n_ctx: int = 4096  # AUTO_N_CTX (0): chosen for the model and machine when planning
    kv_type: str = "f16"
    n_gpu_layers: int | None = None  # None: let the planner choose
    # Set from the environment so a whole test run (app.py subprocesses too) can try another
    # thread count: greedy output changes with it as with another CPU. None: llama.cpp chooses.
    n_threads: int | None = field(default_factory=_threads_from_env)
    n_batch: int = 512
    seed: int = 42


@dataclass(frozen=True)
class GenerationSettings:
    temperature: float = 0.2
    top_p: float = 0.95
    top_k: int = 40
    min_p: float = 0.05
    repeat_penalty: float = 1.1
    max_tokens: int = 512
    seed: int = 42
    stop: tuple[str, ...] = ()
    # Draft by prompt lookup (models.prompt_lookup): for replies that copy much of the prompt, such
    # as a file rewritten with a small change. Greedy output is the same either way.
    prompt_lookup: bool = False

    def llama_kwargs(self) -> dict[str, Any]:
        """The sampling arguments llama_cpp's completion calls take, under their names there."""
        return {
            "temperature": self.temperature,
            "top_p": self.top_p,
            "top_k": self.top_k,
            "min_p": self.min_p,
            "repeat_penalty": self.repeat_penalty,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
        }


@dataclass
class CallStats:
    prompt_tokens: int = 0  # sent
    prompt_tokens_evaluated: int = 0  # actually processed (the rest came from the KV cache)
    completion_tokens: int = 0
    time_to_first_token_s: float = 0.0
    total_s: float = 0.0
    decode_tokens_per_s: float = 0.0
    finish_reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class ChatStream(Iterator[str]):
    """The text pieces of one reply, and that call's statistics once the stream has ended.

    `stats` is None until the call has begun, and final once the stream has ended (or was closed
    early). Closing the stream stops the generation (the in-process engine stops decoding, a
    server's connection is closed).
    """

    def __init__(self, pieces: Iterator[str]) -> None:
        self._pieces = pieces
        self.stats: CallStats | None = None

    def __iter__(self) -> ChatStream:
        return self

    def __next__(self) -> str:
        return next(self._pieces)

    def close(self) -> None:
        close = getattr(self._pieces, "close", None)
        if close is not None:
            close()

    def text(self) -> str:
        """Consume the whole reply."""
        return "".join(self)

    def result(self) -> tuple[str, CallStats]:
        """Consume the whole reply: its text and the call's final statistics."""
        text = "".join(self)
        assert self.stats is not None
        return text, self.stats


class ContextSettings(Protocol):
    """The one engine setting the crew reads: the context window, which sizes its reply caps."""

    @property
    def n_ctx(self) -> int: ...


class ModelInfo(Protocol):
    """What the crew reads of a model: its size picks short or long reply caps."""

    @property
    def parameter_count(self) -> int: ...


@runtime_checkable
class ChatEngine(Protocol):
    """A chat model the crew can drive. Calls may block; `cancel` ends a call between pieces.

    Every engine subclasses it: stream_chat() is the one call an engine must write; chat() and
    complete_many() default to it."""

    # "local" (llama.cpp in this process) or "openai" (an OpenAI-compatible server).
    backend: str
    # The model: a .gguf file, or for a server the model's name as a path (its last part names it).
    model_path: Path
    last_stats: CallStats | None  # the latest call's statistics, for the model panel only

    settings: ContextSettings  # attributes, not properties: an engine sets them (a plan, a load)
    info: ModelInfo | None

    @property
    def loaded(self) -> bool: ...

    def load(self, on_message: Callable[[str], None] | None = None) -> Any:
        """Get ready to answer (load the file, or reach the server); raises EngineError saying why not."""
        ...

    def close(self) -> None: ...

    def count_tokens(self, messages: list[Message]) -> int:
        """How many prompt tokens these messages take (exact locally; a server may only estimate)."""
        ...

    def stream_chat(
        self,
        messages: list[Message],
        gen: GenerationSettings = ...,
        cancel: threading.Event | None = None,
        *,
        schema: JsonSchema | None = None,
    ) -> ChatStream:
        """The reply as it is generated; with `schema`, the reply is JSON following it."""
        ...

    def chat(
        self,
        messages: list[Message],
        gen: GenerationSettings = GenerationSettings(),
        cancel: threading.Event | None = None,
        *extra: Any,
        schema: JsonSchema | None = None,
        **options: Any,
    ) -> tuple[str, CallStats]:
        """The whole reply and its statistics: stream_chat() consumed. `extra` and `options` go to
        an engine's own stream_chat() (the in-process engine's grammar, continue_from, trace)."""
        return self.stream_chat(messages, gen, cancel, *extra, schema=schema, **options).result()

    def complete_many(
        self,
        messages: list[Message],
        gens: Sequence[GenerationSettings],
        cancel: threading.Event | None = None,
        *,
        schema: JsonSchema | None = None,
    ) -> list[tuple[str, CallStats]]:
        """One reply per settings to the same messages (candidates): each settings' seed,
        temperature, max_tokens and stop strings apply to its own reply; replies come back in the
        order of `gens`. The in-process engine decodes them together in one batch, a server gets
        the requests in parallel; this default asks chat() once per settings, in order."""
        return [self.chat(messages, gen, cancel, schema=schema) for gen in gens]


def spread_settings(
    gen: GenerationSettings, n: int, temperatures: Sequence[float] | None = None
) -> list[GenerationSettings]:
    """`n` settings for complete_many: `gen` with seeds gen.seed, gen.seed + 1, ... (so the samples
    differ) and, if given, one temperature each."""
    if temperatures is not None and len(temperatures) != n:
        raise ValueError(f"{len(temperatures)} temperatures for {n} replies")
    chosen = list(temperatures) if temperatures is not None else [gen.temperature] * n
    return [replace(gen, seed=gen.seed + index, temperature=chosen[index]) for index in range(n)]
