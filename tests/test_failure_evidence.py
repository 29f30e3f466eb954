"""Rule failure_evidence: a failing test is shown to the coder as where it failed in the project's own
code, its assertion, and the value got against the one expected; round 1 of a request about failing
tests is shown them failing."""

import subprocess
import sys
from pathlib import Path

import pytest

from agents.rules.prompt.failure_evidence import evidence, got_and_expected, project_path
from agents.rules.registry import RuleSwitches
from agents.rules.rounds.round_policy import feedback
from agents.run.crew_tools import Check
from tests.crew_script import crew, files
from tools.sandbox import RunLimits, run_pytest

CALC = (
    "def total(xs):\n    t = 0\n    for x in xs:\n        t = x\n    return t\n\n\n"
    "def div(a, b):\n    return helper(a, b)\n\n\ndef helper(a, b):\n    return a / b\n"
)
TESTS = (
    "from calc import div, total\n\n\n"
    "def test_total():\n    assert total([1, 2, 3]) == 6\n\n\n"
    "def test_div():\n    assert div(1, 0) == 0\n"
)
INTERNALS = ("_pytest", "pluggy", "site-packages", "runner.py")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "calc.py").write_text(CALC)
    (tmp_path / "test_calc.py").write_text(TESTS)
    return tmp_path


def _pytest(root: Path, *options: str) -> str:
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rA", *options, "test_calc.py"]
    return subprocess.run(argv, cwd=root, capture_output=True, text=True, timeout=120).stdout


@pytest.mark.parametrize("style", ["--tb=long", "--tb=short", "--tb=native"])
def test_each_traceback_style_gives_the_values_and_the_projects_frames_only(
    project: Path, style: str
) -> None:
    output = _pytest(project, style)
    if style == "--tb=native":
        assert "_pytest" in output  # the raw output is mostly pytest's own frames
    shown = evidence(output.replace(f"{project}/", ""))
    assert "total([1, 2, 3]) gave 3; the test expects 6" in shown
    assert "test_calc.py::test_total fails" in shown and "test_calc.py::test_div fails" in shown
    # The division's frames, down to the line that raised, in the project's files.
    assert "calc.py:9: return helper(a, b)" in shown and "calc.py:13: return a / b" in shown
    assert "ZeroDivisionError: division by zero" in shown
    assert not any(word in shown for word in INTERNALS), shown


def test_the_tests_asked_about_come_first(project: Path) -> None:
    shown = evidence(_pytest(project, "--tb=short"), ["test_calc.py::test_div"])
    assert shown.index("test_div") < shown.index("test_total")


def test_a_file_that_cannot_be_collected_is_shown_with_its_error(project: Path) -> None:
    (project / "test_calc.py").write_text("from calc import nothing_here\n\n\ndef test_a():\n    pass\n")
    shown = evidence(_pytest(project, "--tb=short"))
    assert "test_calc.py" in shown and "ImportError" in shown and "nothing_here" in shown


def test_values_come_only_from_an_equality() -> None:
    assert got_and_expected(["assert 3 == 6", "+  where 3 = total([1, 2, 3])"]) == (
        "total([1, 2, 3]) gave 3; the test expects 6"
    )
    assert got_and_expected(["assert 3 == 6"]) == "got 3; the test expects 6"
    assert got_and_expected(["assert 3 < 2"]) == ""
    assert got_and_expected(["ZeroDivisionError: division by zero"]) == ""
    assert project_path("calc.py") and project_path("pkg/calc.py")
    assert not project_path("/usr/lib/python3.11/site-packages/_pytest/runner.py")
    assert not project_path("<frozen importlib._bootstrap>")


def test_the_retry_is_told_the_failure_where_the_output_tail_had_lost_it(project: Path) -> None:
    # Many passing tests: -rA's list of them fills the output's tail.
    passing = "".join(f"\n\ndef test_fine_{i}():\n    assert total([{i}]) == {i}\n" for i in range(60))
    (project / "test_calc.py").write_text(TESTS + passing)
    result = run_pytest(project, ".", limits=RunLimits(wall_s=120), extra=("-rA",))
    check = Check(result, "the request is about these, and they still fail: test_calc.py::test_total")
    before = feedback([], [check], None, [])
    told = feedback([], [check], None, [], RuleSwitches())
    assert "expects 6" not in before  # what the coder was told before this rule
    assert "total([1, 2, 3]) gave 3; the test expects 6" in told
    assert not any(word in told for word in INTERNALS)
    off = feedback([], [check], None, [], RuleSwitches(frozenset({"failure_evidence"})))
    assert off == before


def test_round_one_is_shown_how_the_test_fails(project: Path) -> None:
    fixed = CALC.replace("t = x", "t += x").replace("return a / b", "return a / b if b else 0")
    _, _, engine = crew(project, "The test test_total fails, fix it.", coder=[files(("calc.py", fixed))] * 4)
    prompt = engine.calls_of("coder")[0].last
    assert "total([1, 2, 3]) gave 3; the test expects 6" in prompt
    assert "test_calc.py:5: assert total([1, 2, 3]) == 6" in prompt
    assert "ZeroDivisionError" not in prompt  # a failing test the request is not about is no evidence
    assert not any(word in prompt for word in INTERNALS)


def test_switched_off_round_one_is_shown_the_request_alone(project: Path) -> None:
    fixed = CALC.replace("t = x", "t += x")
    _, _, engine = crew(
        project, "The test test_total fails, fix it.", coder=[files(("calc.py", fixed))] * 4,
        without=frozenset({"failure_evidence"}),
    )  # fmt: skip
    assert "expects 6" not in engine.calls_of("coder")[0].last


def test_the_code_the_failing_test_calls_is_shown_whole_where_the_project_is_not(tmp_path: Path) -> None:
    # bench.judged_fix's ledger: too big to be shown whole, and no file named; the coder saw
    # retrieved snippets, which stopped one line above the bug.
    from bench.judged_fix import TASKS

    task = next(t for t in TASKS if t.name == "ledger")
    for without in (frozenset(), frozenset({"failure_evidence"})):
        folder = tmp_path / ("off" if without else "on")
        for rel, text in task.files.items():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_text(text)
        fixed = files(
            ("ledger.py", task.files["ledger.py"].replace("total = entry.amount", "total += entry.amount"))
        )
        # code_under_test off: on, it makes ledger.py the file to write, shown whole, bug and all
        _, _, engine = crew(folder, task.request, coder=[fixed] * 4, without=without | {"code_under_test"})
        prompt = engine.calls_of("coder")[0].last
        bug = "    for entry in entries:\n        total = entry.amount\n    return total"
        assert ("The code the failing test calls:" in prompt and bug in prompt) is not bool(without)
