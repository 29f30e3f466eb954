"""The crew's logic on a scripted engine: rounds, rejections, failed checks, named files, events, undo.

Every reply is fixed by the test (tests/scripted_engine.py), so a reviewer rejection, a program
that crashes or a malformed tool call happens on every CPU. The calls a round makes are those of
a real run on the bundled model: the planner's JSON plan, the coder's tool calls (JSON) ending in
final_answer, the reviewer's JSON verdict.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from agents.crew_runner import CrewRunner, CrewSettings, RunSummary
from agents.crew_tools import NOTHING_PRINTED
from agents.events import (
    AgentFinished,
    AgentStarted,
    CheckRun,
    ContextRetrieved,
    Event,
    EventBus,
    FileChanged,
    Notice,
    ReviewVerdict,
    RunFinished,
    RunStarted,
    TokenChunk,
    ToolCallFailed,
    ToolCallFinished,
    ToolCallStarted,
)
from tests.scripted_engine import ScriptedEngine, ScriptExhaustedError, by_agent, split_tokens
from tools.run_snapshot import RunSnapshots

REQUEST = "Write a program that sums a list and prints the sum."
UTIL = "def double(x):\n    return 2 * x\n"
GOOD = "def total(xs):\n    return sum(xs)\n\n\nprint(total([1, 2]))\n"


def plan(*files: str) -> str:
    return json.dumps({"steps": ["Write the program", "Print the sum"], "files": list(files)})


def call(name: str, **arguments: str) -> str:
    return json.dumps({"name": name, "arguments": arguments})


def write(path: str, content: str) -> str:
    return call("write_file", path=path, content=content)


def final(text: str = "Wrote the program.") -> str:
    return call("final_answer", text=text)


def verdict(approved: bool, *fixes: str) -> str:
    return json.dumps({"approved": approved, "fixes": list(fixes)})


def _tree(root: Path) -> dict[str, tuple[int, bytes | None]]:
    """Every file and folder with its mode and bytes, the snapshot store left out."""
    return {
        str(p.relative_to(root)): (p.stat().st_mode, p.read_bytes() if p.is_file() else None)
        for p in sorted(root.rglob("*"))
        if ".localcrew" not in p.relative_to(root).parts
    }


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "notes.txt").write_text("the program sums a list of numbers\n")
    (tmp_path / "util.py").write_text(UTIL)
    return tmp_path


def run(
    engine: ScriptedEngine,
    workspace: Path,
    request: str = REQUEST,
    rounds: int = 1,
    cancel: threading.Event | None = None,
    bus: EventBus | None = None,
) -> tuple[RunSummary, EventBus]:
    bus = bus or EventBus()
    summary = CrewRunner(engine, workspace, bus, CrewSettings(rounds=rounds), cancel=cancel).run(request)
    return summary, bus


def events(bus: EventBus, kind: type[Event] = Event) -> list:
    return [e for e in bus.history if isinstance(e, kind) and not isinstance(e, TokenChunk)]


def one_round(path: str = "total_calc.py", content: str = GOOD, approved: bool = True) -> ScriptedEngine:
    return ScriptedEngine(
        by_agent(
            planner=[plan("main.py")], coder=[write(path, content), final()], reviewer=[verdict(approved)]
        )
    )


def test_the_file_the_coder_names_is_the_file_written_and_checked(workspace: Path) -> None:
    engine = one_round("calc/total_calc.py")  # not the plan's main.py: the coder's call decides
    summary, bus = run(engine, workspace)
    assert summary.files_changed == ["calc/total_calc.py"], summary.message
    assert (workspace / "calc" / "total_calc.py").read_text() == GOOD
    assert not (workspace / "main.py").exists()
    [check] = events(bus, CheckRun)
    assert check.command == "python calc/total_calc.py" and check.passed and check.stdout_tail == "3\n"
    assert summary.approved and summary.checks_passed and summary.rounds_used == 1
    assert summary.message == "Approved after 1 round(s); checks passed."


def test_events_arrive_in_order(workspace: Path) -> None:
    engine = one_round()
    _, bus = run(engine, workspace)
    kinds = [(type(e).__name__, getattr(e, "agent", "")) for e in events(bus)]
    assert kinds == [
        ("RunStarted", ""),
        ("ContextRetrieved", ""),
        ("AgentStarted", "planner"),
        ("AgentFinished", "planner"),
        ("AgentStarted", "coder"),
        ("ToolCallStarted", "coder"),
        ("FileChanged", ""),
        ("ToolCallFinished", "coder"),
        ("AgentFinished", "coder"),
        ("CheckRun", ""),
        ("AgentStarted", "reviewer"),
        ("AgentFinished", "reviewer"),
        ("ReviewVerdict", ""),
        ("RunFinished", ""),
    ]
    # Every token streamed reached the bus under its agent's name, in order.
    for agent in ("planner", "coder", "reviewer"):
        streamed = "".join(e.text for e in bus.history if isinstance(e, TokenChunk) and e.agent == agent)
        assert streamed == "".join(c.reply for c in engine.calls_of(agent))
    assert isinstance(bus.history[0], RunStarted) and isinstance(bus.history[-1], RunFinished)


def test_what_reaches_the_model(workspace: Path) -> None:
    engine = one_round()
    run(engine, workspace)
    assert [c.agent for c in engine.calls] == ["planner", "coder", "coder", "reviewer"]
    assert all(c.grammar is not None for c in engine.calls)  # every reply is grammar-constrained
    planner, coder, coder_again, reviewer = engine.calls
    for c in engine.calls:  # the shared preamble: the request, the project's files, retrieved code
        assert REQUEST in c.prompt and "notes.txt, util.py" in c.prompt
        assert "the program sums a list of numbers" in c.prompt
    assert "Files: main.py" in coder.last  # the plan reached the coder
    assert coder_again.last == f"Result of write_file:\ncreated total_calc.py ({len(GOOD)} bytes)"
    assert GOOD in reviewer.last and "python total_calc.py: exit 0" in reviewer.last
    assert "stdout:\n3" in reviewer.last


def test_a_rejection_forces_a_second_round_with_the_fix(workspace: Path) -> None:
    fix = "total_calc.py: also print how many numbers were summed"
    better = GOOD + "print(len([1, 2]))\n"
    engine = ScriptedEngine(
        by_agent(
            planner=[plan("total_calc.py")],
            coder=[write("total_calc.py", GOOD), final(), write("total_calc.py", better), final()],
            reviewer=[verdict(False, fix), verdict(True)],
        )
    )
    summary, bus = run(engine, workspace, rounds=3)
    assert [(v.round, v.approved, v.fixes) for v in events(bus, ReviewVerdict)] == [
        (1, False, [fix]),
        (2, True, []),
    ]
    assert summary.rounds_used == 2 and summary.approved and summary.checks_passed
    assert summary.message == "Approved after 2 round(s); checks passed."
    first, second = engine.calls_of("coder")[0], engine.calls_of("coder")[2]
    assert fix not in first.last and "Fix this from the last round:" not in first.last
    assert f"Fix this from the last round:\n- {fix}\n" in second.last
    assert (workspace / "total_calc.py").read_text() == better
    assert len(engine.calls) == 1 + 3 + 3  # approval ended the run: no third round was asked for


def test_a_failing_check_is_reported_and_fed_back(workspace: Path) -> None:
    crashing = "def total(xs):\n    return sum(xs) / 0\n\n\nprint(total([1, 2]))\n"
    engine = ScriptedEngine(
        by_agent(
            planner=[plan("total_calc.py")],
            coder=[write("total_calc.py", crashing), final(), write("total_calc.py", GOOD), final()],
            reviewer=[verdict(True), verdict(True)],  # a lenient reviewer approves the crash
        )
    )
    summary, bus = run(engine, workspace, rounds=2)
    failed, passed = events(bus, CheckRun)
    assert not failed.passed and failed.exit_code != 0 and "ZeroDivisionError" in failed.stderr_tail
    assert passed.passed and passed.stdout_tail == "3\n"
    reviewer_first = engine.calls_of("reviewer")[0]
    assert (
        "python total_calc.py: exit 1" in reviewer_first.last and "ZeroDivisionError" in reviewer_first.last
    )
    coder_second_round = engine.calls_of("coder")[2]
    assert "Fix this from the last round:" in coder_second_round.last
    assert "ZeroDivisionError" in coder_second_round.last
    assert summary.rounds_used == 2 and summary.checks_passed
    assert summary.message == "Approved after 2 round(s); checks passed."


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("print(1 / 0)\n", "ZeroDivisionError"),
        ("def total(xs):\n    return sum(xs)\n", NOTHING_PRINTED),  # runs, but the request asks for a print
    ],
)
def test_approved_only_when_checks_pass(workspace: Path, content: str, problem: str) -> None:
    engine = one_round(content=content, approved=True)
    summary, bus = run(engine, workspace, rounds=1)
    [check] = events(bus, CheckRun)
    assert not check.passed and problem in check.stderr_tail + check.problem
    assert not summary.checks_passed and len(summary.checks) == 1
    assert summary.checks[0].startswith(check.command)
    assert summary.message == "Rounds used up (1) without passing checks; see the last run output."
    finished = events(bus, RunFinished)[-1]
    assert (finished.approved, finished.checks_passed) == (True, False)


def test_a_malformed_tool_call_becomes_an_observation_and_a_retry(workspace: Path) -> None:
    missing_content = json.dumps({"name": "write_file", "arguments": {"path": "total_calc.py"}})
    engine = ScriptedEngine(
        by_agent(
            planner=[plan("total_calc.py")],
            coder=["not json {", missing_content, write("total_calc.py", GOOD), final()],
            reviewer=[verdict(True)],
        )
    )
    summary, bus = run(engine, workspace)
    failures = events(bus, ToolCallFailed)
    assert [f.name for f in failures] == ["(malformed call)", "(malformed call)"]
    assert "not valid JSON" in failures[0].error and failures[0].arguments == {"reply": "not json {"}
    assert failures[1].error == "write_file: missing argument(s) content"
    coder = engine.calls_of("coder")
    # The retry is the same turn with the bad reply and the reason appended, not a new task.
    assert coder[1].messages[:-2] == coder[0].messages
    assert coder[1].messages[-2] == {"role": "assistant", "content": "not json {"}
    assert coder[1].last.startswith("That tool call was not usable: the reply is not valid JSON")
    assert coder[2].last == f"That tool call was not usable: {failures[1].error}. Send one JSON object."
    assert (workspace / "total_calc.py").read_text() == GOOD
    assert (summary.tool_calls_malformed, summary.tool_calls_ok, summary.checks_passed) == (2, 1, True)


def test_the_coder_must_act_before_it_may_finish(workspace: Path) -> None:
    engine = ScriptedEngine(
        by_agent(
            planner=[plan("util.py")],
            coder=[final("Nothing to do."), call("read_file", path="util.py"), final("Read it.")],
            reviewer=[verdict(False, "util.py: write the program")],
        )
    )
    summary, bus = run(engine, workspace)
    [refused] = events(bus, ToolCallFailed)
    assert "unknown tool 'final_answer'" in refused.error  # no final answer before a tool call
    [read] = events(bus, ToolCallFinished)
    assert read.name == "read_file" and read.result == UTIL
    assert engine.calls_of("coder")[2].last == f"Result of read_file:\n{UTIL}"
    assert summary.files_changed == [] and summary.checks == ["no check ran: no Python file was written"]
    assert "(no file was written)" in engine.calls_of("reviewer")[0].last
    assert not summary.checks_passed


def test_a_tool_error_is_an_observation_not_a_crash(workspace: Path) -> None:
    engine = ScriptedEngine(
        by_agent(
            planner=[plan("total_calc.py")],
            coder=[call("read_file", path="missing.py"), write("total_calc.py", GOOD), final()],
            reviewer=[verdict(True)],
        )
    )
    summary, bus = run(engine, workspace)
    [failed] = events(bus, ToolCallFailed)
    assert failed.name == "read_file" and failed.arguments == {"path": "missing.py"} and failed.error
    assert engine.calls_of("coder")[1].last == f"Result of read_file:\nError: {failed.error}"
    assert summary.completed and summary.checks_passed and summary.files_changed == ["total_calc.py"]


def test_a_call_cut_off_at_max_tokens_keeps_its_complete_lines(workspace: Path) -> None:
    lines = [f"n{i} = {i}" for i in range(600)]  # ~1200 "tokens": past the coder's 700
    engine = ScriptedEngine(
        by_agent(
            planner=[plan("constants.py")],
            coder=[write("constants.py", "\n".join(lines) + "\n"), final()],
            reviewer=[verdict(True)],
        )
    )
    summary, bus = run(engine, workspace, request="Write constants.py with numbered constants.")
    first = engine.calls_of("coder")[0]
    cap = first.gen.max_tokens
    assert first.stats.finish_reason == "length" and first.stats.completion_tokens == cap
    kept = (workspace / "constants.py").read_text().splitlines()
    assert 0 < len(kept) < len(lines) and kept == lines[: len(kept)]  # whole lines, in order, no half line
    [notice] = [n for n in events(bus, Notice) if "cut off" in n.message]
    assert (
        notice.level == "warning"
        and f"cut off at {cap} tokens; kept its {len(kept)} complete" in notice.message
    )
    assert summary.checks_passed and summary.files_changed == ["constants.py"]


def test_a_repeated_call_is_not_run_twice(workspace: Path) -> None:
    engine = ScriptedEngine(
        by_agent(
            planner=[plan("total_calc.py")],
            coder=[write("total_calc.py", GOOD), write("total_calc.py", GOOD)],
            reviewer=[verdict(True)],
        )
    )
    summary, bus = run(engine, workspace)
    assert len(events(bus, ToolCallStarted)) == len(events(bus, FileChanged)) == 1
    [notice] = events(bus, Notice)
    assert notice.level == "info" and "coder repeated its last write_file call" in notice.message
    assert summary.checks_passed and summary.approved


@pytest.mark.parametrize("stop_in", ["planner", "coder"])
def test_stop_ends_the_run_cleanly(workspace: Path, stop_in: str) -> None:
    before = _tree(workspace)
    engine = one_round()
    cancel, bus = threading.Event(), EventBus()
    # Stop at the first token of that agent, as the Stop button does mid-reply.
    bus.subscribe(lambda e: cancel.set() if isinstance(e, TokenChunk) and e.agent == stop_in else None)
    summary, _ = run(engine, workspace, rounds=2, cancel=cancel, bus=bus)
    assert summary.completed and summary.message == "Stopped by the user."
    assert isinstance(bus.history[-1], RunFinished) and bus.history[-1].message == "Stopped by the user."
    [stopped, *retries] = [c for c in engine.calls if c.stats.finish_reason == "cancelled"]
    assert stopped.agent == stop_in and stopped.text == split_tokens(stopped.reply)[0]  # no token after Stop
    assert engine.calls[engine.calls.index(stopped) + 1 :] == retries  # nothing ran after the Stop
    assert all(c.agent == stop_in and c.text == "" for c in retries)  # CrewAI's retries end at once
    assert _tree(workspace) == before and summary.files_changed == []
    assert not events(bus, ToolCallStarted) and not events(bus, CheckRun)


def test_undo_restores_the_workspace_exactly(workspace: Path) -> None:
    (workspace / "util.py").chmod(0o640)
    before = _tree(workspace)
    engine = ScriptedEngine(
        by_agent(
            planner=[plan("util.py", "pkg/helpers.py")],
            coder=[
                write("util.py", UTIL + "\n\ndef triple(x):\n    return 3 * x\n"),
                write("pkg/helpers.py", "from util import double\n\nprint(double(2))\n"),
                final(),
            ],
            reviewer=[verdict(True)],
        )
    )
    summary, _ = run(engine, workspace)
    assert summary.files_changed == ["pkg/helpers.py", "util.py"]
    assert _tree(workspace) != before
    result = RunSnapshots(workspace).undo()
    assert _tree(workspace) == before
    assert result.restored == ["util.py"] and set(result.deleted) == {"pkg/helpers.py", "pkg/"}


def test_tool_events_carry_name_arguments_result_duration(workspace: Path) -> None:
    engine = one_round()
    summary, bus = run(engine, workspace)
    [started], [finished] = events(bus, ToolCallStarted), events(bus, ToolCallFinished)
    arguments = {"path": "total_calc.py", "content": GOOD}
    assert (started.call_id, started.name, started.arguments) == (finished.call_id, "write_file", arguments)
    assert finished.arguments == arguments and finished.agent == "coder"
    assert finished.result == f"created total_calc.py ({len(GOOD.encode())} bytes)"
    assert 0 <= finished.duration_s <= summary.duration_s
    [changed] = events(bus, FileChanged)
    assert (changed.path, changed.action) == ("total_calc.py", "created")
    assert changed.diff.startswith("--- /dev/null\n+++ b/total_calc.py\n")
    assert all(f"+{line}" in changed.diff.splitlines() for line in GOOD.splitlines())
    json.dumps([e.to_dict() for e in bus.history], default=str)  # every event serialises


def test_run_statistics_add_up(workspace: Path) -> None:
    engine = one_round()
    summary, _ = run(engine, workspace)
    stats = [c.stats for c in engine.calls]
    assert summary.llm_calls == len(engine.calls) == 4
    assert summary.prompt_tokens_sent == sum(s.prompt_tokens for s in stats)
    assert summary.prompt_tokens_evaluated == sum(s.prompt_tokens_evaluated for s in stats)
    # The preamble every agent shares is evaluated once; later calls reuse it from the cache.
    assert 0 < summary.prompt_tokens_evaluated < summary.prompt_tokens_sent
    assert 0 < summary.llm_seconds <= summary.duration_s
    assert (summary.tool_calls_ok, summary.tool_calls_malformed) == (1, 0)


def test_empty_replies_end_the_run_with_a_reason(workspace: Path) -> None:
    before = _tree(workspace)
    engine = ScriptedEngine(lambda messages: "")  # the planner says nothing, even when pressed
    summary, bus = run(engine, workspace)
    # Each empty reply is followed by one firmer prompt (CrewAI then retries the whole call).
    assert len(engine.calls) % 2 == 0 and {c.agent for c in engine.calls} == {"planner"}
    for plain, firm in zip(engine.calls[::2], engine.calls[1::2], strict=True):
        assert firm.messages[:-1] == plain.messages and "Reply now with the answer itself" in firm.last
    assert summary.message.startswith("The run ended: the planner produced no output twice")
    assert isinstance(bus.history[-1], RunFinished) and _tree(workspace) == before


def test_a_script_that_runs_out_fails_the_run_loudly(workspace: Path) -> None:
    # The fake's own guard: a crew that asks for more calls than scripted cannot pass unnoticed.
    engine = ScriptedEngine([plan("a.py")])
    summary, _ = run(engine, workspace)
    assert not summary.completed and ScriptExhaustedError.__name__ in summary.message


def test_agent_turns_are_announced(workspace: Path) -> None:
    _, bus = run(one_round(), workspace)
    started = [(e.agent, e.round) for e in events(bus, AgentStarted)]
    finished = [(e.agent, e.round) for e in events(bus, AgentFinished)]
    assert started == finished == [("planner", 0), ("coder", 1), ("reviewer", 1)]
    assert events(bus, ContextRetrieved)[0].query == REQUEST
