"""CrewAI's BaseLLM over LocalCrew's in-process engine: no network, no API key.

Two kinds of call: with a JSON schema configured for the agent (planner, reviewer) the answer is
grammar-constrained JSON; otherwise free text, honouring CrewAI's stop sequences. The crew's agents
have no CrewAI tools: the coder answers in file blocks that the runner writes (agents/run/crew_tools.py),
so the native tool-call path an earlier crew used is gone.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from crewai import BaseLLM
from crewai.events.types.llm_events import LLMCallType
from crewai.llms.base_llm import llm_call_context
from crewai.utilities.exceptions.context_window_exceeding_exception import LLMContextLengthExceededError
from pydantic import Field, PrivateAttr

import agents.llm.crewai_setup  # noqa: F401, I001  (offline, quiet)
from agents.events import ContextUsed, EventBus, Notice, TokenChunk
from agents.llm.context_budget import Fit, fit_to_context
from models.chat_engine import CallStats, ChatEngine, ContextOverflowError, GenerationSettings, JsonSchema

FIRM_REMINDER = "Your previous reply was empty. Reply now with the answer itself, in plain words or code."


class RunCancelledError(RuntimeError):
    """The user pressed Stop."""


class EmptyModelOutputError(RuntimeError):
    """The model produced nothing twice, even after a firmer prompt."""


class LocalLLM(BaseLLM):
    """One instance per agent: it carries that agent's name, sampling and answer schema."""

    engine: Any = Field(exclude=True)
    agent_name: str = "agent"
    generation: GenerationSettings = Field(default_factory=GenerationSettings, exclude=True)
    answer_schema: dict[str, Any] | None = None
    # Shared by every agent of a run and put first in the system prompt, so each agent's first call
    # finds it in the KV cache (the previous agent's prompt began with the same tokens).
    preamble: str = ""
    # Only the task's own words reach the model, not CrewAI's wrapper around them ("Current Task:",
    # "This is the expected criteria…"): the 0.5B coder wrote worse code under the wrapper than
    # from the same request alone.
    task_only: bool = False
    # No system message either: the coder's plain try is the task alone, as one chat call sends it.
    plain: bool = False
    bus: Any = Field(default=None, exclude=True)
    cancel: Any = Field(default=None, exclude=True)  # threading.Event set by Stop
    # A test on the reply so far; true ends it there (the reviewer's ninth assert is never used,
    # and the 1.5B once listed 27 of them, a minute of decoding).
    enough: Any = Field(default=None, exclude=True)
    # Several replies to the one call, decoded together (the engine's complete_many): the first is
    # CrewAI's answer, all are kept in `candidate_texts` for the runner to try one by one.
    candidates: Any = Field(default=None, exclude=True)  # list[GenerationSettings] | None
    candidate_texts: list[str] = Field(default_factory=list, exclude=True)
    context_window: int = 4096
    _stats: list[CallStats] = PrivateAttr(default_factory=list)
    _llm_seconds: float = PrivateAttr(default=0.0)
    _last_budget_notice: str = PrivateAttr(default="")

    # ---------- what CrewAI asks about the model ----------
    def supports_function_calling(self) -> bool:
        return False  # no agent of the crew is given tools

    def supports_stop_words(self) -> bool:
        return True

    def get_context_window_size(self) -> int:
        return int(self.context_window * 0.85)  # CrewAI's own convention: keep 15 % headroom

    def get_input_tokens_count(self, messages: Any, tools: Any = None, response_model: Any = None) -> int:
        engine: ChatEngine = self.engine
        if isinstance(messages, str):
            return engine.count_tokens([{"role": "user", "content": messages}])
        return engine.count_tokens(self._chat_messages(messages))

    @property
    def call_stats(self) -> list[CallStats]:
        return list(self._stats)

    @property
    def llm_seconds(self) -> float:
        return self._llm_seconds

    # ---------- calls ----------
    def call(
        self,
        messages: Any,
        tools: list[dict[str, Any]] | None = None,
        callbacks: Any = None,
        available_functions: Any = None,
        from_task: Any = None,
        from_agent: Any = None,
        response_model: Any = None,
    ) -> Any:
        with llm_call_context():  # gives CrewAI's LLM events one call id
            return self._call(messages, tools, from_task, from_agent, response_model)

    def _call(
        self,
        messages: Any,
        tools: list[dict[str, Any]] | None,
        from_task: Any,
        from_agent: Any,
        response_model: Any,
    ) -> Any:
        chat = self._chat_messages(messages)
        self._emit_call_started_event(
            messages=messages, tools=tools, from_task=from_task, from_agent=from_agent
        )
        try:
            schema = self._schema_of(response_model) or self.answer_schema
            result = self._answer(chat, schema, from_task, from_agent)
            call_type = LLMCallType.LLM_CALL
        except ContextOverflowError as exc:
            self._emit_call_failed_event(error=str(exc), from_task=from_task, from_agent=from_agent)
            raise LLMContextLengthExceededError(str(exc)) from exc
        except Exception as exc:
            self._emit_call_failed_event(error=str(exc), from_task=from_task, from_agent=from_agent)
            raise
        self._emit_call_completed_event(
            response=result,
            call_type=call_type,
            from_task=from_task,
            from_agent=from_agent,
            messages=messages,
        )
        return result

    async def acall(
        self,
        messages: Any,
        tools: list[dict[str, Any]] | None = None,
        callbacks: Any = None,
        available_functions: Any = None,
        from_task: Any = None,
        from_agent: Any = None,
        response_model: Any = None,
    ) -> Any:
        import asyncio

        return await asyncio.to_thread(
            self.call, messages, tools, callbacks, available_functions, from_task, from_agent, response_model
        )

    # ---------- the three kinds ----------
    def _answer(
        self, chat: list[dict[str, str]], schema: dict[str, Any] | None, task: Any, agent: Any
    ) -> str:
        structured = answer_schema(schema) if schema else None
        stops = () if schema else tuple(self.stop_sequences)
        text = self._generate(chat, structured, stops, task, agent)
        if not text.strip():
            # Small models sometimes stop at once; one firmer retry, then give up clearly.
            text = self._generate(
                chat + [{"role": "user", "content": FIRM_REMINDER}], structured, stops, task, agent
            )
        if not text.strip():
            raise EmptyModelOutputError(f"the {self.agent_name} produced no output twice")
        return text.strip()

    def _generate(
        self,
        chat: list[dict[str, str]],
        schema: JsonSchema | None,
        stops: tuple[str, ...],
        task: Any,
        agent: Any,
        max_tokens: int | None = None,
    ) -> str:
        engine: ChatEngine = self.engine
        fit = self._fit(chat, max_tokens or self.generation.max_tokens)
        gen = replace(
            self.generation,
            stop=tuple(stops) + self.generation.stop,
            max_tokens=fit.reply_cap,
        )
        if self.candidates:
            return self._generate_together(fit.messages, gen, schema)
        started = time.perf_counter()
        pieces = []
        reply = engine.stream_chat(fit.messages, gen, cancel=self.cancel, schema=schema)
        try:
            for piece in reply:
                pieces.append(piece)
                self._emit_stream_chunk_event(chunk=piece, from_task=task, from_agent=agent)
                self._emit(TokenChunk(agent=self.agent_name, text=piece))
                if self.enough is not None and self.enough("".join(pieces)):
                    break
        finally:
            reply.close()  # a consumer that stopped early must not leave the model generating
            self._llm_seconds += time.perf_counter() - started
            if reply.stats is not None:  # this call's own: another run may share the engine
                self._stats.append(reply.stats)
                self._emit(ContextUsed(
                    agent=self.agent_name, prompt_tokens=reply.stats.prompt_tokens,
                    reply_tokens=reply.stats.completion_tokens, n_ctx=self.context_window))  # fmt: skip
        if self.cancel is not None and self.cancel.is_set():
            raise RunCancelledError("stopped by the user")
        return "".join(pieces)

    def _generate_together(
        self, messages: list[dict[str, str]], gen: GenerationSettings, schema: JsonSchema | None
    ) -> str:
        """The candidates decoded in one batch: each keeps its own seed and temperature, all share
        this call's stops and reply cap. Nothing streams while they decode; the first is shown."""
        gens = [replace(c, stop=gen.stop, max_tokens=gen.max_tokens) for c in self.candidates]
        started = time.perf_counter()
        try:
            replies = self.engine.complete_many(messages, gens, self.cancel, schema=schema)
        finally:
            self._llm_seconds += time.perf_counter() - started
        if self.cancel is not None and self.cancel.is_set():
            raise RunCancelledError("stopped by the user")
        self.candidate_texts = [text for text, _ in replies]
        for _, stats in replies:
            self._stats.append(stats)
        first = self.candidate_texts[0] if self.candidate_texts else ""
        self._emit(TokenChunk(agent=self.agent_name, text=first))
        return first

    def _fit(self, chat: list[dict[str, str]], reply_cap: int) -> Fit:
        """The call shortened to fit the context (agents/llm/context_budget.py), saying what went."""
        fit = fit_to_context(chat, self.engine.count_tokens, self.context_window, reply_cap)
        note = fit.notice()
        if note and note != self._last_budget_notice:  # a retry of the same call says it once
            self._last_budget_notice = note
            self._emit(Notice(level="warning", message=f"{self.agent_name}: {note}"))
        return fit

    # ---------- message shaping ----------
    def _chat_messages(self, messages: Any) -> list[dict[str, str]]:
        """CrewAI's OpenAI-style messages -> plain role/content pairs the chat template accepts."""
        if isinstance(messages, str):
            messages = [{"role": "user", "content": messages}]
        chat: list[dict[str, str]] = (
            [{"role": "system", "content": self.preamble}] if self.preamble and not self.plain else []
        )
        for message in messages:
            role = message.get("role", "user")
            if self.plain and role == "system":
                continue
            content = _text_of(message.get("content"))
            if self.task_only and role == "user":
                content = _task_text(content)
            if role not in ("system", "user", "assistant"):
                role = "user"
            if role == "system" and chat and chat[-1]["role"] == "system":
                chat[-1] = {"role": "system", "content": chat[-1]["content"] + "\n\n" + content}
            else:
                chat.append({"role": role, "content": content})
        return chat

    @staticmethod
    def _schema_of(response_model: Any) -> dict[str, Any] | None:
        if response_model is None or not hasattr(response_model, "model_json_schema"):
            return None
        return response_model.model_json_schema()

    def _emit(self, event: Any) -> None:
        bus: EventBus | None = self.bus
        if bus is not None:
            bus.emit(event)


def answer_schema(schema: Any) -> Any:
    """The schema a structured answer (the planner's plan, the reviewer's verdict) is held to, less
    the keys a grammar does not need (titles, descriptions), so the grammar stays small."""
    if isinstance(schema, dict):
        return {k: answer_schema(v) for k, v in schema.items() if k not in _NOT_FOR_GRAMMAR}
    if isinstance(schema, list):
        return [answer_schema(v) for v in schema]
    return schema


_NOT_FOR_GRAMMAR = ("title", "description", "examples")


def _task_text(content: str) -> str:
    """The task description inside CrewAI's task prompt; the content itself when it has no wrapper."""
    start = content.find(_TASK_START)
    if start < 0:
        return content
    body = content[start + len(_TASK_START) :]
    end = body.find(_TASK_END)
    return (body[:end] if end >= 0 else body).strip()


_TASK_START = "Current Task: "
_TASK_END = "\n\nThis is the expected criteria for your final answer:"


def _text_of(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)
    return str(content)
