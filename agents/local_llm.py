"""CrewAI's BaseLLM over LocalCrew's in-process engine: no network, no API key.

Three kinds of call, chosen by what CrewAI passes:
- tools given: a tool step. The reply is constrained by a grammar built from the tools' argument
  schemas and returned as OpenAI-style tool calls, so CrewAI runs the tool (native function calling).
  A malformed reply is fed back to the model as an observation and retried, never raised.
- a JSON schema configured for the agent (planner, reviewer): the answer is grammar-constrained JSON.
- otherwise: free text, honouring CrewAI's stop sequences.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import replace
from typing import Any

from crewai import BaseLLM
from crewai.events.types.llm_events import LLMCallType
from crewai.llms.base_llm import llm_call_context
from crewai.utilities.exceptions.context_window_exceeding_exception import LLMContextLengthExceededError
from pydantic import Field, PrivateAttr

import agents.crewai_setup  # noqa: F401, I001  (offline, quiet)
from agents.context_budget import Fit, fit_to_context
from agents.events import ContextUsed, EventBus, Notice, TokenChunk, ToolCallFailed
from agents.tool_calls import (
    ParsedCall,
    ToolCallParseError,
    ToolSpec,
    answer_schema,
    parse_tool_call,
    repair_cut_off_call,
    tool_call_schema,
    tool_instructions,
)
from models.chat_engine import ChatEngine, JsonSchema
from models.engine import CallStats, ContextOverflowError, GenerationSettings

MAX_TOOL_ATTEMPTS = 3
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
    tool_required_first: bool = False  # the coder must act before it may stop
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
    _raw_calls: dict[str, str] = PrivateAttr(default_factory=dict)
    _stats: list[CallStats] = PrivateAttr(default_factory=list)
    _llm_seconds: float = PrivateAttr(default=0.0)
    _last_budget_notice: str = PrivateAttr(default="")

    # ---------- what CrewAI asks about the model ----------
    def supports_function_calling(self) -> bool:
        return True

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
            if tools:
                result = self._tool_step(chat, tools, from_task, from_agent)
                call_type = LLMCallType.TOOL_CALL if isinstance(result, list) else LLMCallType.LLM_CALL
            else:
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

    def _tool_step(
        self, chat: list[dict[str, str]], tools: list[dict[str, Any]], task: Any, agent: Any
    ) -> Any:
        specs = [ToolSpec.from_openai(tool) for tool in tools]
        allow_final = not self.tool_required_first or self._acted_in(chat)
        if not self.preamble:  # a crew run's preamble already describes the tools
            chat = self._with_tool_instructions(chat, specs)
        structured = tool_call_schema(specs, allow_final)
        max_tokens = self.generation.max_tokens
        for attempt in range(1, MAX_TOOL_ATTEMPTS + 1):
            text = self._generate(chat, structured, (), task, agent, max_tokens=max_tokens)
            cut_off = bool(self._stats) and self._stats[-1].finish_reason == "length"
            try:
                call = parse_tool_call(text, specs, allow_final)
            except ToolCallParseError as exc:
                repaired = repair_cut_off_call(text, specs, allow_final) if cut_off else None
                if repaired is not None:
                    lines = str(repaired.arguments.get("content", "")).count("\n")
                    self._emit(Notice(level="warning", message=(
                        f"The {self.agent_name}'s {repaired.name} call was cut off at {max_tokens} tokens; "
                        f"kept its {lines} complete line(s).")))  # fmt: skip
                    return self._as_tool_call(repaired, text)
                if cut_off and max_tokens == self.generation.max_tokens:
                    # At temperature 0 the same budget fails the same way; one larger budget, once.
                    max_tokens *= 2
                self._emit(
                    ToolCallFailed(
                        call_id=f"malformed-{attempt}",
                        agent=self.agent_name,
                        name="(malformed call)",
                        arguments={"reply": text[:300]},
                        error=str(exc),
                        duration_s=0.0,
                    )
                )
                chat = chat + [
                    {"role": "assistant", "content": text},
                    {
                        "role": "user",
                        "content": f"That tool call was not usable: {exc}. Send one JSON object.",
                    },
                ]
                continue
            if call.is_final:
                return str(call.arguments.get("text", "")).strip() or "Done."
            if self._repeats_last_call(chat, call.name, call.arguments):
                # Small models loop on the call they just made; treat the repeat as "done", and say
                # so: the streamed reply shows the call twice, though it ran once.
                self._emit(Notice(level="info", message=(
                    f"The {self.agent_name} repeated its last {call.name} call word for word; "
                    "it was not run again, and the step ends here.")))  # fmt: skip
                return f"Done: {call.name} {json.dumps(call.arguments)[:200]} was already carried out."
            return self._as_tool_call(call, text)
        return f"The {self.agent_name} could not produce a valid tool call after {MAX_TOOL_ATTEMPTS} tries."

    def _as_tool_call(self, call: ParsedCall, raw_text: str) -> list[dict[str, Any]]:
        call_id = f"call_{uuid.uuid4().hex[:12]}"
        self._raw_calls[call_id] = raw_text  # replayed verbatim next turn, so the KV cache matches
        function = {"name": call.name, "arguments": json.dumps(call.arguments)}
        return [{"id": call_id, "type": "function", "function": function}]

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
        """The call shortened to fit the context (agents/context_budget.py), saying what went."""
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
            if role == "assistant" and message.get("tool_calls"):
                call = message["tool_calls"][0]
                function = call.get("function", {})
                raw = self._raw_calls.get(call.get("id", ""))
                content = raw or json.dumps(
                    {"name": function.get("name"), "arguments": json.loads(function.get("arguments") or "{}")}
                )
            elif role == "tool":
                role, content = "user", f"Result of {message.get('name', 'the tool')}:\n{content}"
            elif role not in ("system", "user", "assistant"):
                role = "user"
            if role == "system" and chat and chat[-1]["role"] == "system":
                chat[-1] = {"role": "system", "content": chat[-1]["content"] + "\n\n" + content}
            else:
                chat.append({"role": role, "content": content})
        return chat

    @staticmethod
    def _with_tool_instructions(chat: list[dict[str, str]], specs: list[ToolSpec]) -> list[dict[str, str]]:
        instructions = tool_instructions(specs)
        if chat and chat[0]["role"] == "system":
            return [{"role": "system", "content": chat[0]["content"] + "\n\n" + instructions}] + chat[1:]
        return [{"role": "system", "content": instructions}] + chat

    @staticmethod
    def _repeats_last_call(chat: list[dict[str, str]], name: str, arguments: dict[str, Any]) -> bool:
        previous = next((m["content"] for m in reversed(chat) if m["role"] == "assistant"), None)
        if previous is None:
            return False
        try:
            last = json.loads(previous, strict=False)
        except json.JSONDecodeError:
            return False
        return isinstance(last, dict) and last.get("name") == name and last.get("arguments") == arguments

    def _acted_in(self, chat: list[dict[str, str]]) -> bool:
        return any(m["role"] == "user" and m["content"].startswith("Result of ") for m in chat)

    @staticmethod
    def _schema_of(response_model: Any) -> dict[str, Any] | None:
        if response_model is None or not hasattr(response_model, "model_json_schema"):
            return None
        return response_model.model_json_schema()

    def _emit(self, event: Any) -> None:
        bus: EventBus | None = self.bus
        if bus is not None:
            bus.emit(event)


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
