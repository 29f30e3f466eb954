"""The CrewAI adapter on the real bundled model and the real CrewAI event bus.

What the model writes differs from one CPU to another, so real-model tests assert the form of a
reply; a behaviour that needs a given reply (a repeat, a cut-off call) runs on the scripted engine.
"""

import asyncio
import json

import pytest

import agents.llm.crewai_setup  # noqa: F401
from agents.events import EventBus, TokenChunk
from agents.llm.context_budget import PromptTooLongError
from agents.llm.local_llm import LocalLLM
from agents.llm.roles import PLAN_SCHEMA
from models.chat_engine import GenerationSettings
from models.engine import Engine
from tests.scripted_engine import ScriptedEngine

ASK = [
    {"role": "system", "content": "You write Python."},
    {"role": "user", "content": "Create hello.py that prints hello."},
]


def _llm(engine: Engine | ScriptedEngine, **kwargs) -> LocalLLM:
    return LocalLLM(
        model="test", engine=engine, generation=GenerationSettings(temperature=0.0, max_tokens=120), **kwargs
    )


def test_the_agents_take_no_tools_and_the_answer_is_text(engine: Engine) -> None:
    llm = _llm(engine)
    assert llm.supports_function_calling() is False  # CrewAI then never hands it tool schemas
    text = llm.call(ASK)
    assert isinstance(text, str) and text.strip()


def test_structured_answer_follows_the_schema(engine: Engine) -> None:
    text = _llm(engine, answer_schema=PLAN_SCHEMA).call("Plan: write hello.py that prints hi.")
    plan = json.loads(text, strict=False)
    assert isinstance(plan["steps"], list) and plan["steps"] and isinstance(plan["files"], list)


def test_stop_sequences_are_honoured(engine: Engine) -> None:
    llm = _llm(engine, stop=["\n"])
    assert "\n" not in llm.call("Write three lines of Python.")


def test_context_overflow_is_refused_in_plain_words_not_left_to_crewai(engine: Engine) -> None:
    # CrewAI answers its own context error by summarizing the conversation: a silent cut. The
    # budget (agents/llm/context_budget.py) refuses first and says how far over the request is.
    with pytest.raises(PromptTooLongError, match=r"about \d+ tokens.*the context holds 4096"):
        _llm(engine).call("word " * 5000)


def test_stream_chunks_reach_crewai_and_our_bus(engine: Engine) -> None:
    from crewai.events import LLMStreamChunkEvent, crewai_event_bus

    bus = EventBus()
    crewai_chunks: list[str] = []
    with crewai_event_bus.scoped_handlers():
        crewai_event_bus.on(LLMStreamChunkEvent)(lambda _, event: crewai_chunks.append(event.chunk))
        text = _llm(engine, bus=bus, agent_name="coder").call("Say hello.")
    ours = [e for e in bus.history if isinstance(e, TokenChunk)]
    assert "".join(e.text for e in ours).strip() == text
    assert ours and all(e.agent == "coder" for e in ours)
    assert "".join(crewai_chunks).strip() == text


def test_acall(engine: Engine) -> None:
    text = asyncio.run(_llm(engine).acall("Say hi."))
    assert isinstance(text, str) and text
