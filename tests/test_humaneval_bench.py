"""bench.humaneval: example parsing, code extraction, sandboxed checks, the crew's prompts, resume.

The model tests use the real bundled model at temperature 0 and assert structure (records,
summary fields, what reached the prompts), never the model's wording.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bench.humaneval import cli as humaneval
from bench.humaneval import execution as humaneval_exec
from bench.humaneval.code import Example, docstring_examples, function_source, solution_from_reply
from bench.humaneval.execution import grade, run_examples
from bench.humaneval.modes import CODE_BLOCK_END, Budget, single_prompt, solve_crew, solve_single
from models.chat_engine import GenerationSettings
from models.engine import Engine

TINY = Budget(single=64, planner=24, coder=96, reviewer=24)  # keeps the model tests short
GEN = GenerationSettings(temperature=0.0, repeat_penalty=1.0, seed=1234)  # as bench.humaneval samples


@pytest.fixture(scope="module")
def problems() -> list[dict[str, Any]]:
    return humaneval.load_problems()


def test_examples_come_from_the_docstring_only(problems: list[dict[str, Any]]) -> None:
    first = problems[0]
    assert docstring_examples(first["prompt"], first["entry_point"]) == [
        Example("has_close_elements([1.0, 2.0, 3.0], 0.5)", "False"),
        Example("has_close_elements([1.0, 2.8, 3.0, 4.0, 5.0, 2.0], 0.3)", "True"),
    ]
    # "f(x) ➞ y" lines.
    fly = problems[72]
    assert Example("will_it_fly([3], 5)", "True") in docstring_examples(fly["prompt"], fly["entry_point"])


@pytest.mark.parametrize(
    ("index", "example", "count"),
    [
        (68, Example("pluck([5, 0, 3, 0, 4, 2])", "[0, 1]"), 4),  # Input: ... Output: ...
        (78, Example("hex_key(num='AB')", "1"), 5),  # For num = "AB" the output should be 1.
        (80, Example("is_happy('abcd')", "True"), 6),  # is_happy(abcd) => True, unquoted
        (81, Example("numerical_letter_grade([4.0, 3, 1.7, 2, 3.5])", "['A+', 'B', 'C-', 'C', 'A-']"), 1),
    ],
)
def test_examples_in_prose_forms_are_read(
    problems: list[dict[str, Any]], index: int, example: Example, count: int
) -> None:
    found = docstring_examples(problems[index]["prompt"], problems[index]["entry_point"])
    assert example in found and len(found) == count


def test_every_dev_problem_with_examples_has_them_read_and_right(problems: list[dict[str, Any]]) -> None:
    # Problems 38, 41, 50 show no example; 47's docstring gives a wrong median (15.0 for 8.0).
    no_examples, wrong_docstring = {38, 41, 50}, {47}
    for index, problem in enumerate(problems[:82]):
        examples = docstring_examples(problem["prompt"], problem["entry_point"])
        assert bool(examples) == (index not in no_examples), index
        if examples and index not in wrong_docstring:
            program = problem["prompt"] + problem["canonical_solution"]
            run = run_examples(program, examples, problem["entry_point"])
            assert run.all_passed, (index, run.lines)


def test_canonical_solutions_pass_their_examples_and_the_grade(problems: list[dict[str, Any]]) -> None:
    for problem in (problems[0], problems[66], problems[97]):
        program = problem["prompt"] + problem["canonical_solution"]
        examples = docstring_examples(problem["prompt"], problem["entry_point"])
        run = run_examples(program, examples, problem["entry_point"])
        assert run.all_passed and run.total == len(examples) >= 1, run.lines
        assert grade(problem, program).passed


def test_wrong_code_fails_with_readable_feedback(problems: list[dict[str, Any]]) -> None:
    problem = problems[0]
    examples = docstring_examples(problem["prompt"], problem["entry_point"])
    program = problem["prompt"] + "    return True\n"
    run = run_examples(program, examples, problem["entry_point"])
    assert (run.passed, run.total) == (1, 2)
    assert run.lines[0].startswith(
        "FAIL has_close_elements([1.0, 2.0, 3.0], 0.5) returned True, expected False"
    )
    crash = run_examples(
        problem["prompt"] + "    import os\n    os._exit(3)\n", examples, "has_close_elements"
    )
    assert crash.passed == 0 and "stopped" in crash.lines[-1]
    verdict = grade(problem, program)
    assert not verdict.passed and "AssertionError" in verdict.detail


def test_generated_code_runs_in_the_sandbox(problems: list[dict[str, Any]], monkeypatch) -> None:
    calls: list[str] = []
    real = humaneval_exec.run_python

    def spy(workspace: Path, rel_file: str, args: Any = None, limits: Any = None) -> Any:
        calls.append((Path(workspace) / rel_file).read_text())
        return real(workspace, rel_file, args, limits)

    monkeypatch.setattr(humaneval_exec, "run_python", spy)
    problem = problems[23]
    # Code that would end the harness if it ran here: it must only end the sandboxed child.
    program = problem["prompt"] + "    import os\n    os._exit(0)\n"
    assert run_examples(program, [Example("strlen('ab')", "2")], "strlen").passed == 0
    # Exit status 0 before check() has finished is no pass.
    assert not grade(problem, problem["prompt"] + "    raise SystemExit(0)\n").passed
    assert len(calls) == 2 and "check(strlen)" in calls[1]


def test_replies_become_programs() -> None:
    prompt = 'from typing import List\n\n\ndef total(xs: List[int]) -> int:\n    """Sum."""\n'
    code = "def total(xs: List[int]) -> int:\n    return sum(xs)\n\nprint(total([1]))\n"
    fenced = f"Sure:\n```\n\n```python\n{code}```"
    program = solution_from_reply(prompt, "total", fenced)
    assert program.startswith("from typing import List") and "return sum(xs)" in program
    assert "print(" not in program  # demo calls at top level are dropped
    body = solution_from_reply(prompt, "total", "    return sum(xs)\n")
    assert '"""Sum."""' in body and body.rstrip().endswith("return sum(xs)")
    cut_off = solution_from_reply(
        prompt, "total", "```python\ndef total(xs):\n    s = 0\n    for x in xs:\n        s +="
    )
    assert "def total(xs):" in cut_off and "s +=" not in cut_off
    prose = solution_from_reply(prompt, "total", "I cannot help.")
    assert "I cannot" not in prose and "def total" in prose
    compile(prose, "prose", "exec")  # a wrong answer, but a program: it fails its checks like one
    assert function_source(program, "total") == "def total(xs: List[int]) -> int:\n    return sum(xs)"


def _unpassable(problem: dict[str, Any], call: str) -> dict[str, Any]:
    """The problem with two docstring examples that contradict each other: no version passes them,
    so the crew runs every round whatever this CPU's greedy replies are."""
    head, end, tail = problem["prompt"].rpartition('    """\n')
    changed = {**problem, "prompt": f"{head}    >>> {call}\n    True\n    >>> {call}\n    False\n{end}{tail}"}
    examples = docstring_examples(changed["prompt"], problem["entry_point"])
    assert Example(call, "True") in examples and Example(call, "False") in examples
    return changed


def _recording(engine: Engine, monkeypatch) -> list[str]:
    """Every prompt text the engine receives from now on."""
    seen: list[str] = []
    real = engine.stream_chat

    def stream_chat(messages: list[dict[str, str]], *args: Any, **kwargs: Any) -> Any:
        seen.append("\n".join(m["content"] for m in messages))
        return real(messages, *args, **kwargs)

    monkeypatch.setattr(engine, "stream_chat", stream_chat)
    return seen


def _hidden_lines(problem: dict[str, Any]) -> list[str]:
    lines = [line.strip() for line in problem["test"].splitlines()]
    return [line for line in lines if line.startswith("assert") or line.startswith("def check")]


def test_hidden_tests_never_reach_a_prompt(
    engine: Engine, problems: list[dict[str, Any]], monkeypatch
) -> None:
    seen = _recording(engine, monkeypatch)
    problem = _unpassable(problems[0], "has_close_elements([1.0], 0.5)")
    crew = solve_crew(engine, problem, GEN, rounds=2)
    # The product's crew ran: its agents spoke, and the docstring's examples were its checks (no
    # version passes the contradicting pair, so both rounds ran).
    agents = [step["step"] for step in crew.steps if not step["step"].startswith("checks")]
    assert agents[0] == "coder 1" and crew.rounds == 2 and crew.llm_calls == len(seen) > 0
    assert any(step["step"] == "checks: written checks" for step in crew.steps)
    assert crew.examples_total >= 2 and crew.examples_passed < crew.examples_total
    assert crew.program.startswith(problem["prompt"][: problem["prompt"].index("def ")].rstrip()[:20])
    hidden = _hidden_lines(problem)
    assert len(hidden) >= 5, "the hidden test has asserts to look for"
    assert any(problem["entry_point"] in prompt for prompt in seen)  # the visible problem reaches it
    for prompt in seen:
        assert "def check(" not in prompt and "candidate(" not in prompt
        for line in hidden:
            assert line not in prompt


def test_coder_replies_stop_where_their_code_block_ends(
    engine: Engine, problems: list[dict[str, Any]], monkeypatch
) -> None:
    # Two greedy replies to one prompt need not agree (the second reuses the KV cache, and float
    # rounding differs there), so the stop is checked on one reply and on what the bench asks for.
    problem, entry = problems[2], problems[2]["entry_point"]
    messages = [{"role": "user", "content": single_prompt(problem["prompt"])}]
    cut, stats = engine.chat(messages, replace(GEN, max_tokens=160, stop=(CODE_BLOCK_END,)))
    assert cut.strip() and CODE_BLOCK_END not in cut and stats.finish_reason == "stop"
    # What small models write after the block (prose, another block) never changes the program.
    after = CODE_BLOCK_END + "\nThis returns the decimal part.\n```python\nprint(1)\n```\n"
    assert solution_from_reply(problem["prompt"], entry, cut) == solution_from_reply(
        problem["prompt"], entry, cut + after
    )
    stops: list[tuple[str, ...]] = []
    real = engine.stream_chat

    def stream_chat(
        messages: list[dict[str, str]], gen: GenerationSettings, *args: Any, **kwargs: Any
    ) -> Any:
        stops.append(gen.stop)
        return real(messages, gen, *args, **kwargs)

    monkeypatch.setattr(engine, "stream_chat", stream_chat)
    single = solve_single(engine, problem, replace(GEN, max_tokens=160), Budget(single=160))
    assert [CODE_BLOCK_END in stop for stop in stops] == [True]  # single's coder turn asks for the stop
    assert CODE_BLOCK_END not in single.steps[0]["reply"]


def test_cli_writes_records_summary_and_chart_and_resumes(tmp_path: Path, capsys) -> None:
    argv = [
        "--mode",
        "both",
        "--offset",
        "23",
        "--limit",
        "1",
        "--rounds",
        "1",
        "--out",
        str(tmp_path),
        "--json",
    ]
    assert humaneval.main(argv) == 0
    first = capsys.readouterr().out
    records = [json.loads(line) for line in (tmp_path / "records.jsonl").read_text().splitlines()]
    assert [(r["task_id"], r["mode"]) for r in records] == [
        ("HumanEval/23", "single"),
        ("HumanEval/23", "crew"),
    ]
    for record in records:
        assert {"passed", "rounds", "tokens", "seconds", "examples_passed", "solution"} <= set(record)
        assert record["tokens"] > 0 and record["seconds"] > 0 and record["index"] == 23
    summary = json.loads(first.strip().splitlines()[-1])
    assert summary == json.loads((tmp_path / "summary.json").read_text())
    for mode in ("single", "crew"):
        part = summary["modes"][mode]
        assert part["all"]["problems"] == 1 and part["dev_0_81"]["problems"] == 1
        assert part["heldout_82_163"] == {"problems": 0, "passed": 0, "pass_at_1": None}
    assert "| crew |" in (tmp_path / "summary.md").read_text()
    assert (tmp_path / "pass_at_1.png").read_bytes()[:4] == b"\x89PNG"

    # A second run finds both done and asks the model nothing; a half-written line is ignored.
    with (tmp_path / "records.jsonl").open("a") as fh:
        fh.write('{"task_id": "HumanEval/24", "mo')
    assert humaneval.main(argv) == 0
    second = capsys.readouterr().out
    assert not re.search(r"\[ *23\]", second)
    text = (tmp_path / "records.jsonl").read_text()
    assert len(text.splitlines()) == 3 and text.endswith("\n")  # the next record starts on its own line
