"""The CrewAI adapter on the real bundled model and the real CrewAI event bus.

What the model writes differs from one CPU to another, so real-model tests assert the form of a
reply; a behaviour that needs a given reply (a repeat, a cut-off call) runs on the scripted engine.
"""

import asyncio
import json

import pytest

import agents.crewai_setup  # noqa: F401
from agents.context_budget import PromptTooLongError
from agents.crew_tools import WriteArgs
from agents.events import EventBus, Notice, TokenChunk, ToolCallFailed
from agents.local_llm import LocalLLM
from agents.roles import PLAN_SCHEMA
from models.engine import Engine, GenerationSettings
from tests.scripted_engine import ScriptedEngine

WRITE_TOOL = {"type": "function", "function": {"name": "write_file", "description": "Write a whole file.",
                                               "parameters": WriteArgs.model_json_schema()}}  # fmt: skip
ASK = [
    {"role": "system", "content": "You write Python."},
    {"role": "user", "content": "Create hello.py that prints hello."},
]


def _llm(engine: Engine | ScriptedEngine, **kwargs) -> LocalLLM:
    return LocalLLM(
        model="test", engine=engine, generation=GenerationSettings(temperature=0.0, max_tokens=120), **kwargs
    )


def test_tool_step_returns_native_tool_calls(engine: Engine) -> None:
    result = _llm(engine, tool_required_first=True).call(ASK, tools=[WRITE_TOOL])
    assert isinstance(result, list) and len(result) == 1
    call = result[0]
    assert call["type"] == "function" and call["function"]["name"] == "write_file"
    arguments = json.loads(call["function"]["arguments"])
    assert set(arguments) == {"path", "content"} and arguments["content"]
    assert not arguments["path"].startswith("/")


def test_tool_result_turn_is_rendered_and_reuses_the_cache(engine: Engine) -> None:
    llm = _llm(engine, tool_required_first=True)
    first = llm.call(ASK, tools=[WRITE_TOOL])
    follow = ASK + [
        {"role": "assistant", "content": None, "tool_calls": first},
        {"role": "tool", "tool_call_id": first[0]["id"], "name": "write_file", "content": "created hello.py"},
    ]
    llm.call(follow, tools=[WRITE_TOOL])
    second = llm.call_stats[-1]
    assert (
        second.prompt_tokens_evaluated < second.prompt_tokens / 2
    )  # the earlier turn came from the KV cache


def test_malformed_calls_become_observations_not_errors(engine: Engine) -> None:
    bus = EventBus()
    llm = LocalLLM(
        model="t",
        engine=engine,
        bus=bus,
        tool_required_first=True,
        generation=GenerationSettings(temperature=0.0, max_tokens=6),
    )  # too short to finish the JSON
    result = llm.call(ASK, tools=[WRITE_TOOL])
    failures = [e for e in bus.history if isinstance(e, ToolCallFailed)]
    assert isinstance(result, str) and "could not produce a valid tool call" in result
    assert len(failures) == 3 and all("cut off" in f.error or "not valid JSON" in f.error for f in failures)


def _write(path: str, content: str) -> str:
    return json.dumps({"name": "write_file", "arguments": {"path": path, "content": content}})


def test_a_repeated_call_is_not_run_again_and_says_so() -> None:
    # Small models loop on the call they just made; the script makes the coder do exactly that.
    engine = ScriptedEngine([_write("hello.py", "print('hello')\n")] * 2)
    bus = EventBus()
    llm = _llm(engine, tool_required_first=True, bus=bus, agent_name="coder")
    first = llm.call(ASK, tools=[WRITE_TOOL])
    assert isinstance(first, list) and first[0]["function"]["name"] == "write_file"
    result = llm.call(ASK + [
        {"role": "assistant", "content": None, "tool_calls": first},
        {"role": "tool", "tool_call_id": first[0]["id"], "name": "write_file", "content": "created hello.py"},
    ], tools=[WRITE_TOOL])  # fmt: skip
    assert isinstance(result, str) and "already carried out" in result  # no second tool call
    notices = [e for e in bus.history if isinstance(e, Notice)]
    assert len(notices) == 1 and notices[0].level == "info"
    assert "coder repeated its last write_file call" in notices[0].message
    # The first call was replayed word for word as the assistant's turn (so the KV cache matches).
    assert engine.calls[1].messages[-2] == {"role": "assistant", "content": engine.calls[0].reply}


def test_a_different_call_after_the_first_runs() -> None:
    engine = ScriptedEngine([_write("hello.py", "print('hello')\n"), _write("hello.py", "print('hi')\n")])
    llm = _llm(engine, tool_required_first=True, agent_name="coder")
    first = llm.call(ASK, tools=[WRITE_TOOL])
    second = llm.call(ASK + [
        {"role": "assistant", "content": None, "tool_calls": first},
        {"role": "tool", "tool_call_id": first[0]["id"], "name": "write_file", "content": "created hello.py"},
    ], tools=[WRITE_TOOL])  # fmt: skip
    assert (
        isinstance(second, list)
        and json.loads(second[0]["function"]["arguments"])["content"] == "print('hi')\n"
    )


def test_a_cut_off_call_without_a_whole_line_gets_one_larger_budget() -> None:
    long_line = _write("hello.py", "print(" + " + ".join(["1"] * 100) + ")\n")  # ~200 words, one line
    engine = ScriptedEngine([long_line] * 2)
    bus = EventBus()
    result = _llm(engine, tool_required_first=True, bus=bus).call(ASK, tools=[WRITE_TOOL])
    cap = 120
    assert [c.gen.max_tokens for c in engine.calls] == [cap, 2 * cap]
    assert [c.stats.finish_reason for c in engine.calls] == ["length", "stop"]
    [failed] = [e for e in bus.history if isinstance(e, ToolCallFailed)]
    assert "cut off" in failed.error  # the first, cut-off reply was fed back as an observation
    assert (
        "cut off" in engine.calls[1].last and engine.calls[1].messages[-2]["content"] == engine.calls[0].text
    )
    assert isinstance(result, list) and json.loads(result[0]["function"]["arguments"])["path"] == "hello.py"


def test_structured_answer_follows_the_schema(engine: Engine) -> None:
    text = _llm(engine, answer_schema=PLAN_SCHEMA).call("Plan: write hello.py that prints hi.")
    plan = json.loads(text, strict=False)
    assert isinstance(plan["steps"], list) and plan["steps"] and isinstance(plan["files"], list)


def test_stop_sequences_are_honoured(engine: Engine) -> None:
    llm = _llm(engine, stop=["\n"])
    assert "\n" not in llm.call("Write three lines of Python.")


def test_context_overflow_is_refused_in_plain_words_not_left_to_crewai(engine: Engine) -> None:
    # CrewAI answers its own context error by summarizing the conversation: a silent cut. The
    # budget (agents/context_budget.py) refuses first and says how far over the request is.
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
