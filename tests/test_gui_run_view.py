"""gui.run_view / gui.sidebar_html: a run's events become chat turns, a timeline and context rows."""

from __future__ import annotations

import html
import re
from typing import Any

from markdown_it import MarkdownIt

from agents.events import (
    AgentFinished,
    AgentStarted,
    CheckRun,
    ContextRetrieved,
    ReviewVerdict,
    RunFinished,
    RunHeld,
    TokenChunk,
    ToolCallFailed,
    ToolCallFinished,
    ToolCallStarted,
)
from gui.markdown_text import fence, literal
from gui.run_view import MESSAGE_CHARS, RunView
from gui.sidebar_html import context_rows, timeline_html
from tools.search_hit import Hit


def _finished(**changes: object) -> RunFinished:
    values = dict(
        run_id="r1",
        completed=True,
        approved=True,
        checks_passed=True,
        rounds_used=1,
        files_changed=["a.py"],
        checks=["python a.py: exit 0"],
        message="ok",
        duration_s=2.0,
    )
    values.update(changes)
    return RunFinished(**values)  # type: ignore[arg-type]


def test_agent_turns_are_labelled_and_stream_tokens() -> None:
    view = RunView("write a.py")
    view.apply(AgentStarted(agent="planner", round=0))
    view.apply(TokenChunk(agent="planner", text='{"steps": '))
    view.apply(TokenChunk(agent="planner", text='["x"]}'))
    assert view.messages[-1]["content"].startswith("**Planner**")
    assert '{"steps": ["x"]}' in view.messages[-1]["content"]
    view.apply(AgentFinished(agent="planner", round=0, output="ignored", duration_s=1.25))
    assert "· 1.2 s" in view.messages[-1]["content"] or "· 1.3 s" in view.messages[-1]["content"]
    view.apply(AgentStarted(agent="coder", round=2))
    assert view.messages[-1]["content"].startswith("**Coder** · round 2")
    assert view.messages[0] == {"role": "user", "content": "write a.py"}


def test_each_model_call_of_a_turn_starts_on_its_own_line() -> None:
    view = RunView("x")
    view.apply(AgentStarted(agent="coder", round=1))
    coder_message = len(view.messages) - 1
    view.apply(TokenChunk(agent="coder", text='{"name": "write_file"}'))
    view.apply(ToolCallStarted(call_id="c1", agent="coder", name="write_file", arguments={"path": "a.py"}))
    view.apply(TokenChunk(agent="coder", text='{"name": "bad'))
    view.apply(
        ToolCallFailed(
            call_id="m1", agent="coder", name="(malformed call)", arguments={}, error="cut", duration_s=0.0
        )
    )
    view.apply(TokenChunk(agent="coder", text='{"name": "final_answer"}'))
    content = view.messages[coder_message]["content"]
    assert '{"name": "write_file"}\n{"name": "bad\n{"name": "final_answer"}' in content


def test_a_long_turn_shows_its_tail_only() -> None:
    view = RunView("x")
    view.apply(AgentStarted(agent="coder", round=1))
    view.apply(TokenChunk(agent="coder", text="a" * (MESSAGE_CHARS * 2) + "END"))
    content = view.messages[-1]["content"]
    assert content.rstrip("`\n").endswith("END") and len(content) < MESSAGE_CHARS + 200


def test_tool_call_goes_from_pending_to_done_in_chat_and_timeline() -> None:
    view = RunView("x")
    view.apply(ToolCallStarted(call_id="c1", agent="coder", name="write_file", arguments={"path": "a.py"}))
    panel = view.messages[-1]
    assert panel["metadata"]["status"] == "pending" and panel["metadata"]["title"] == "Tool: write_file"
    assert view.timeline[-1].status == "pending"
    assert "lc-spinner" in timeline_html(view.timeline)
    view.apply(
        ToolCallFinished(
            call_id="c1",
            agent="coder",
            name="write_file",
            arguments={"path": "a.py"},
            result="created a.py (10 bytes)",
            duration_s=0.5,
        )
    )
    assert panel["metadata"]["status"] == "done" and panel["metadata"]["duration"] == 0.5
    assert "created a.py" in panel["content"]
    row = view.timeline[-1]
    assert (row.status, row.result, row.duration_s) == ("done", "created a.py (10 bytes)", 0.5)
    assert "lc-spinner" not in timeline_html(view.timeline)


def test_failed_and_malformed_calls_show_in_red() -> None:
    view = RunView("x")
    view.apply(ToolCallStarted(call_id="c1", agent="coder", name="read_file", arguments={"path": "../x"}))
    view.apply(
        ToolCallFailed(
            call_id="c1",
            agent="coder",
            name="read_file",
            arguments={"path": "../x"},
            error="outside the workspace",
            duration_s=0.01,
        )
    )
    view.apply(
        ToolCallFailed(
            call_id="c2",
            agent="coder",
            name="(malformed call)",
            arguments={},
            error="not JSON",
            duration_s=0.0,
        )
    )
    assert [r.status for r in view.timeline] == ["error", "error"]
    html = timeline_html(view.timeline)
    assert html.count("color:#dc2626") >= 2 and "outside the workspace" in html and "not JSON" in html
    assert view.messages[-1]["metadata"]["title"].endswith("(failed)")


def test_context_rows_checks_and_the_end() -> None:
    view = RunView("x")
    chunk = Hit("calc.py", 3, 9, "add", "python", 0.0321, "def add(a, b):\n    return a + b")
    view.apply(ContextRetrieved(query="x", source="index", chunks=[chunk]))
    assert context_rows(view.context) == [["calc.py:3-9", "add", "0.032", "def add(a, b): return a + b"]]
    assert view.messages[-1]["metadata"]["title"] == "Context: 1 from index"
    view.apply(_check(passed=False, stderr_tail="NameError"))
    assert view.timeline[-1].status == "error" and "NameError" in view.messages[-1]["content"]
    view.apply(_finished())
    assert view.finished is not None and "`a.py`" in view.messages[-1]["content"]


def _check(passed: bool, **fields: Any) -> CheckRun:
    defaults: dict[str, Any] = {
        "command": "python a.py",
        "exit_code": 0 if passed else 1,
        "limit_hit": None,
        "duration_s": 0.1,
        "stdout_tail": "",
        "stderr_tail": "",
    }
    return CheckRun(passed=passed, **(defaults | fields))


def test_an_approval_over_a_failed_check_says_the_round_is_not_done() -> None:
    view = RunView("x")
    view.apply(_check(passed=False))
    view.apply(ReviewVerdict(round=1, approved=True, fixes=[]))
    assert "check failed" in view.messages[-1]["content"]
    view.apply(_check(passed=True))  # the next round's check passes: a plain approval again
    view.apply(ReviewVerdict(round=2, approved=True, fixes=[]))
    assert view.messages[-1]["content"] == "**Round 2:** every check passed."


def test_checks_run_again_in_a_round_are_judged_by_their_last_run() -> None:
    # The second opinion dropped a wrong assert and the written checks ran again, and passed.
    view = RunView("x")
    view.apply(_check(passed=True))
    view.apply(_check(passed=False, command="written checks"))
    view.apply(_check(passed=True, command="written checks"))
    view.apply(ReviewVerdict(round=1, approved=True, fixes=[]))
    assert view.messages[-1]["content"] == "**Round 1:** every check passed."


def test_a_check_that_failed_on_silence_says_why() -> None:
    view = RunView("x")
    silent = _check(
        passed=False,
        command="python stub.py",
        exit_code=0,
        problem="it printed nothing, though the request asks for printed output",
    )
    view.apply(silent)
    title = view.messages[-1]["metadata"]["title"]
    assert title == f"Check: python stub.py failed ({silent.problem})"
    assert view.timeline[-1].status == "error"


def test_untrusted_text_is_escaped_and_fences_cannot_be_broken() -> None:
    view = RunView("x")
    view.apply(ToolCallStarted(call_id="c1", agent="coder", name="<script>alert(1)</script>", arguments={}))
    html = timeline_html(view.timeline)
    assert "<script>" not in html and "&lt;script&gt;" in html
    text = "before\n```\nafter ````"
    fenced = fence(text)
    assert fenced.startswith("`````\n") and fenced.endswith("\n`````")


def test_the_users_words_show_as_typed_not_as_markup() -> None:
    def shown(markdown: str) -> str:
        return html.unescape(re.sub(r"<[^>]+>", "", MarkdownIt("commonmark").render(markdown))).strip()

    # "a __len__ method" showed as "a **len** method" in the chat and in the undo message.
    for text in [
        "Give TodoList a __len__ that returns len(self.items) * 2.",
        "# not a heading\n- not a list\n1. nor this\n> nor a quote",
        "a <b>tag</b>, [a](link), `code`, ~~struck~~, a | b, back\\slash, x & y &amp; z",
    ]:
        assert shown(literal(text)) == text
    plain = "Add a function sub(a, b) to calc.py that returns a - b."
    assert literal(plain) == plain  # kept as typed where nothing needs escaping
    view = RunView(request="Give TodoList a __len__")
    assert shown(view.messages[0]["content"]) == "Give TodoList a __len__"


def test_a_run_whose_checks_failed_but_changed_files_says_how_to_undo_it() -> None:
    failed = RunView("x")
    failed.apply(_finished(approved=False, checks_passed=False, message="Rounds used up (3)."))
    assert "Undo this run" in failed.messages[-1]["content"]
    passed, nothing = RunView("x"), RunView("x")
    passed.apply(_finished())
    nothing.apply(_finished(approved=False, checks_passed=False, files_changed=[]))
    assert "Undo this run" not in passed.messages[-1]["content"] + nothing.messages[-1]["content"]
    unchecked = RunView("x")  # every check passed, but none checked the change (checked_approval)
    unchecked.apply(_finished(approved=False, checks_passed=True))
    assert "Undo this run" in unchecked.messages[-1]["content"]


def test_a_held_run_does_not_offer_undo() -> None:
    # Staged for review, the change is not on disk: Last run → Undo would take back the run before
    # it (seen in chromium: the chat offered it under a held run).
    view = RunView("x")
    view.apply(_finished(approved=False, checks_passed=True, files_changed=["a.py", "b.py"]))
    view.apply(RunHeld(level="info", message="Held for review: the change to `a.py`, `b.py` waits."))
    text = "\n".join(m["content"] for m in view.messages)
    assert "Undo this run" not in text
    assert "Held for review" in view.messages[-1]["content"]
    assert "Files changed: `a.py`, `b.py`" in text  # the run's own message stays
