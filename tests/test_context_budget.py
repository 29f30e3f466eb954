"""The context budget: what goes first when a call does not fit, the notice saying so, the plain
refusal when nothing can make it fit, and each call's share of the context in the event stream."""

from __future__ import annotations

import pytest

import agents.llm.crewai_setup  # noqa: F401
from agents.events import ContextUsed, EventBus, Notice
from agents.llm.context_budget import MIN_REPLY_TOKENS, PromptTooLongError, fit_to_context
from agents.llm.local_llm import LocalLLM
from agents.llm.roles import coder_task
from models.chat_engine import GenerationSettings
from tests.scripted_engine import ScriptedEngine


def _words(messages: list[dict[str, str]]) -> int:
    return sum(len(m["content"].split()) for m in messages)


def _code(name: str, lines: int) -> str:
    return "\n".join(f"def {name}_{i}(x):\n    return x + {i}" for i in range(lines))


def _chat(task: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": "You write Python."}, {"role": "user", "content": task}]


def test_a_prompt_that_fits_is_left_alone() -> None:
    chat = _chat(coder_task("Write add.py.", None, "", context=_code("near", 5)))
    fit = fit_to_context(chat, _words, n_ctx=4096, reply_cap=512)
    assert fit.messages == chat and not fit.left_out and fit.reply_cap == 512 and fit.notice() == ""


def test_retrieved_code_goes_first() -> None:
    task = coder_task("Write add.py with add(a, b).", None, "", context=_code("hint", 200))
    chat = _chat(task)
    fit = fit_to_context(chat, _words, n_ctx=_words(chat) - 200 + 300, reply_cap=300)
    assert fit.left_out == ["the retrieved code"]
    content = fit.messages[1]["content"]
    assert "hint_0" not in content and "Request: Write add.py" in content
    assert "retrieved code" in fit.notice()
    assert fit.prompt_tokens + fit.reply_cap <= _words(chat) - 200 + 300


def test_feedback_goes_before_other_files_and_the_edited_file_stays() -> None:
    current = f"calc.py\n```python\n{_code('calc', 40)}\n```\nother.py\n```python\n{_code('other', 300)}\n```"
    trace = "\n".join(f"trace line {i} of the failure" for i in range(150))
    feedback = f"Check failed: calc_3(1) gave 4.\n{trace}"
    chat = _chat(coder_task("Fix calc_3 in calc.py.", None, feedback, current=current))
    # Room for everything but ~half the feedback: trimming the feedback is enough.
    fit = fit_to_context(chat, _words, n_ctx=_words(chat) - 400 + 256, reply_cap=256)
    assert fit.left_out == ["the last try's feedback after its first line"]
    content = fit.messages[1]["content"]
    assert "Check failed: calc_3(1) gave 4." in content and "trace line 5 " not in content
    assert "other_299" in content
    # Less room: the other file's contents go too, never calc.py's, which the request names.
    fit = fit_to_context(chat, _words, n_ctx=_words(chat) - 1500 + 256, reply_cap=256)
    assert fit.left_out == ["the last try's feedback after its first line", "the contents of other.py"]
    content = fit.messages[1]["content"]
    assert "other.py: (left out)" in content and "other_299" not in content and "calc_39" in content
    assert content.index("Request: Fix calc_3") > content.index("calc.py")


def test_older_tool_results_go_before_the_feedback() -> None:
    chat = _chat(coder_task("Write add.py.", None, "It failed.\nline two of it"))
    chat += [
        {"role": "assistant", "content": '{"name": "read_file"}'},
        {"role": "user", "content": "Result of read_file:\n" + _code("old", 200)},
        {"role": "assistant", "content": '{"name": "read_file"}'},
        {"role": "user", "content": "Result of read_file:\nlatest"},
    ]
    fit = fit_to_context(chat, _words, n_ctx=_words(chat) - 300 + 200, reply_cap=200)
    assert fit.left_out == ["1 earlier tool result(s)"]
    assert fit.messages[-1]["content"].endswith("latest") and "old_0" not in fit.messages[3]["content"]


def test_twenty_thousand_characters_of_pasted_code_are_refused_in_plain_words() -> None:
    pasted = ("x = compute(alpha, beta)  # step\n" * 700)[:20_000]
    chat = _chat(coder_task(f"Refactor this code:\n{pasted}", None, ""))
    with pytest.raises(PromptTooLongError) as caught:
        fit_to_context(chat, _words, n_ctx=2048, reply_cap=512)
    message = str(caught.value)
    assert f"about {_words(chat)} tokens" in message and "the context holds 2048" in message


def test_a_prompt_that_fits_only_with_a_smaller_reply_cap_says_so() -> None:
    chat = _chat("Write add.py. " + "word " * 900)
    fit = fit_to_context(chat, _words, n_ctx=_words(chat) + MIN_REPLY_TOKENS + 10, reply_cap=512)
    assert fit.reply_cap == MIN_REPLY_TOKENS + 10 and "room for the reply" in fit.notice()


def test_the_adapter_sends_the_shortened_prompt_says_what_went_and_reports_its_share() -> None:
    bus = EventBus()
    seen: list[object] = []
    bus.subscribe(seen.append)
    engine = ScriptedEngine(["def add(a, b):\n    return a + b\n"], n_ctx=1024)
    llm = LocalLLM(
        model="test",
        engine=engine,
        generation=GenerationSettings(temperature=0.0, max_tokens=256),
        context_window=1024,
        bus=bus,
    )
    task = coder_task("Write add.py with add(a, b).", None, "", context=_code("hint", 600))
    llm.call(_chat(task))
    sent = engine.calls[-1].messages
    assert "hint_0" not in sent[-1]["content"]
    notices = [e for e in seen if isinstance(e, Notice)]
    assert len(notices) == 1 and "retrieved code" in notices[0].message
    used = [e for e in seen if isinstance(e, ContextUsed)]
    assert len(used) == 1 and used[0].n_ctx == 1024
    assert used[0].prompt_tokens > 0 and used[0].prompt_tokens + 256 <= 1024


def test_the_timeline_and_the_model_panel_show_the_context_used() -> None:
    from types import SimpleNamespace

    from gui.model_panel_data import context_gauge_html
    from gui.run_view import RunView
    from models.chat_engine import CallStats

    view = RunView("Write add.py.")
    view.apply(ContextUsed(agent="coder", prompt_tokens=3000, reply_tokens=72, n_ctx=4096))
    row = view.timeline[-1]
    assert row.agent == "coder" and "3,072 / 4,096 tokens" in row.arguments and "(75 %)" in row.arguments

    engine = ScriptedEngine([], n_ctx=4096)
    engine.last_stats = CallStats(prompt_tokens=1000, completion_tokens=24)
    gauge = context_gauge_html(SimpleNamespace(engine=engine))
    assert "1,024 / 4,096 tokens (25 %)" in gauge and "width:25%" in gauge
    assert context_gauge_html(SimpleNamespace(engine=None)) == ""
