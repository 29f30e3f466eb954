"""A scripted models.chat_engine.ChatEngine: fixed replies, so crew logic is tested exactly.

A real model's greedy words change with the CPU's float rounding, so a test that needs a given
reply (a rejection, a crash, a named file) scripts it here. The fake has the ChatEngine surface
(count_tokens, stream_chat with stats on the stream, chat, last_stats, info, model_path, settings,
loaded; not continue_from or trace: it does not branch replies) and behaves like the engine where the
crew can tell: replies stream in pieces, `cancel` stops the stream, `gen.max_tokens` and
`gen.stop` cut a reply (finish_reason "length" / "stop"), and a prompt that repeats the previous
one's start is counted as coming from the KV cache.

A "token" here is one whitespace-separated word (with the whitespace before the next word).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from models.chat_engine import (
    CallStats,
    ChatEngine,
    ChatStream,
    ContextOverflowError,
    EngineSettings,
    GenerationSettings,
    JsonSchema,
)

Message = dict[str, str]
Script = Callable[[list[Message]], str]
DEFAULT_GENERATION = GenerationSettings()

# What CrewAI puts in each agent's system prompt ("You are Coder. ..."), from agents/llm/roles.py.
AGENT_MARKERS = {"planner": "You are Planner.", "coder": "You are Coder.", "reviewer": "You are Reviewer."}


class ScriptExhaustedError(AssertionError):
    """The crew asked for more replies than the test scripted."""


@dataclass
class ScriptedCall:
    """One stream_chat call as the fake received and answered it."""

    messages: list[Message]
    gen: GenerationSettings
    schema: JsonSchema | None  # the structured output asked for (None: free text)
    reply: str  # what the script gave
    text: str = ""  # what was streamed (cut by max_tokens, stop or cancel)
    stats: CallStats = field(default_factory=CallStats)

    @property
    def agent(self) -> str | None:
        return agent_of(self.messages)

    @property
    def prompt(self) -> str:
        return "\n".join(m["content"] for m in self.messages)

    @property
    def last(self) -> str:
        return self.messages[-1]["content"] if self.messages else ""


@dataclass(frozen=True)
class ScriptedInfo:
    """The part of GGUFInfo the crew reads: the parameter count picks the agents' reply caps."""

    name: str = "scripted"
    parameter_count: int = 135_000_000  # the bundled model's: short caps
    file_size: int = 100_000_000


def agent_of(messages: list[Message]) -> str | None:
    """Which crew agent a prompt belongs to, from CrewAI's "You are <Role>." line; a prompt with no
    system message is the coder's plain try."""
    system = "\n".join(m["content"] for m in messages if m["role"] == "system")
    if not system:
        return "coder"
    found = [name for name, marker in AGENT_MARKERS.items() if marker in system]
    return found[0] if len(found) == 1 else None


def split_tokens(text: str) -> list[str]:
    """Pieces that join back to `text`: each word with the whitespace after it."""
    return [piece for piece in re.split(r"(?<=\s)(?=\S)", text) if piece]


def in_order(replies: Iterable[str]) -> Script:
    """Replies consumed one per call, whatever the prompt."""
    pending = list(replies)

    def script(messages: list[Message]) -> str:
        if not pending:
            raise ScriptExhaustedError(f"no scripted reply left for: {messages[-1]['content'][:200]!r}")
        return pending.pop(0)

    return script


def by_agent(**replies: Iterable[str]) -> Script:
    """Each agent's replies in order (planner=[...], coder=[...], reviewer=[...])."""
    scripts = {name: in_order(texts) for name, texts in replies.items()}

    def script(messages: list[Message]) -> str:
        agent = agent_of(messages)
        if agent not in scripts:
            raise ScriptExhaustedError(f"no script for agent {agent!r}: {messages[-1]['content'][:200]!r}")
        return scripts[agent](messages)

    return script


class ScriptedEngine(ChatEngine):
    """Answers each call from `script`: a list of replies in order, or messages -> reply; chat() and
    complete_many() are the base class's (one scripted call per settings, in order)."""

    backend = "scripted"

    def __init__(
        self,
        script: Iterable[str] | Script,
        *,
        n_ctx: int = 4096,
        parameter_count: int = ScriptedInfo.parameter_count,
    ) -> None:
        self.script: Script = script if callable(script) else in_order(script)
        self.settings = EngineSettings(n_ctx=n_ctx)
        self.model_path = Path("scripted.gguf")
        self.info = ScriptedInfo(parameter_count=parameter_count)
        self.load_report = None
        self.last_stats: CallStats | None = None
        self.calls: list[ScriptedCall] = []
        self._previous: list[str] = []
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return True

    def load(self, on_message: Callable[[str], None] | None = None) -> None:
        pass  # nothing to load: the script is the model

    def close(self) -> None:
        pass

    def tokenize_chat(self, messages: list[Message]) -> tuple[list[str], list[str]]:
        # Role markers keep two messages from counting as one prompt when their words match.
        return [w for m in messages for w in (f"<{m['role']}>", *m["content"].split())], []

    def count_tokens(self, messages: list[Message]) -> int:
        return len(self.tokenize_chat(messages)[0])

    def stream_chat(
        self,
        messages: list[Message],
        gen: GenerationSettings = DEFAULT_GENERATION,
        cancel: threading.Event | None = None,
        *,
        schema: JsonSchema | None = None,
    ) -> ChatStream:
        def pieces() -> Iterator[str]:
            with self._lock:  # one call at a time, as the engine serves them
                yield from self._stream(messages, gen, cancel, schema, reply)

        reply = ChatStream(pieces())
        return reply

    def _stream(
        self,
        messages: list[Message],
        gen: GenerationSettings,
        cancel: threading.Event | None,
        schema: JsonSchema | None,
        reply: ChatStream,
    ) -> Iterator[str]:
        started = time.perf_counter()
        tokens, _ = self.tokenize_chat(messages)
        if len(tokens) >= self.settings.n_ctx:
            raise ContextOverflowError(
                f"Requested tokens ({len(tokens)}) exceed context window of {self.settings.n_ctx}"
            )
        reused = _common_prefix(tokens, self._previous)
        self._previous = tokens
        # As llama.cpp: at least the last prompt token is evaluated again.
        stats = CallStats(prompt_tokens=len(tokens), prompt_tokens_evaluated=max(1, len(tokens) - reused))
        self.last_stats = reply.stats = stats
        call = ScriptedCall([dict(m) for m in messages], gen, schema, reply="", stats=stats)
        self.calls.append(call)
        if cancel is not None and cancel.is_set():
            # Stopped before the first token (CrewAI retries a failed call): the model said nothing,
            # so no scripted reply is used up.
            stats.finish_reason, stats.total_s = "cancelled", time.perf_counter() - started
            return
        call.reply = self.script(call.messages)
        reply, stats.finish_reason = _cut_at_stop(call.reply, gen.stop)
        pieces = split_tokens(reply)
        if len(pieces) > gen.max_tokens:
            pieces, stats.finish_reason = pieces[: gen.max_tokens], "length"
        try:
            for piece in pieces:
                if cancel is not None and cancel.is_set():
                    stats.finish_reason = "cancelled"
                    break
                call.text += piece
                stats.completion_tokens += 1
                if stats.time_to_first_token_s == 0.0:
                    stats.time_to_first_token_s = time.perf_counter() - started
                yield piece
        finally:
            stats.total_s = time.perf_counter() - started

    # ---------- what tests ask afterwards ----------
    def calls_of(self, agent: str) -> list[ScriptedCall]:
        return [call for call in self.calls if call.agent == agent]


def _common_prefix(a: list[str], b: list[str]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _cut_at_stop(text: str, stops: tuple[str, ...]) -> tuple[str, str]:
    """The text before the first stop string, as llama.cpp returns it."""
    found = [i for i in (text.find(s) for s in stops if s) if i >= 0]
    return (text[: min(found)], "stop") if found else (text, "stop")
