"""Rule failing_trace (off by default): round 1 of a request about a failing test is shown what
the code under test did on it, line by line, run once more in the sandbox under a tracer."""

from __future__ import annotations

from pathlib import Path

from agents.events import EventBus
from agents.rules.prompt.failing_trace import failing_trace
from agents.run.crew_tools import ToolContext
from tests.crew_script import crew, files
from tools.sandbox import RunLimits
from tools.workspace_files import WorkspaceFiles

CALC = (
    "def total(items):\n    result = 0\n    for x in items:\n        result = x\n    return result\n\n\n"
    "def mean(items):\n    return total(items) / len(items)\n"
)
TESTS = (
    "from calc import mean, total\n\n\n"
    "def test_total():\n    assert total([1, 2, 3]) == 6\n\n\n"
    "def test_mean():\n    assert mean([2, 4]) == 3\n"
)


def _project(root: Path) -> None:
    (root / "calc.py").write_text(CALC)
    (root / "test_calc.py").write_text(TESTS)


def test_the_trace_shows_the_projects_lines_their_values_and_returns_only(tmp_path: Path) -> None:
    _project(tmp_path)
    context = ToolContext(WorkspaceFiles(tmp_path), EventBus(), RunLimits(wall_s=30.0))
    trace = failing_trace(context, "test_calc.py::test_mean")
    assert "mean(items=[2, 4]) in calc.py" in trace and "total(items=[2, 4]) in calc.py" in trace
    assert "result = x    -> result=4" in trace  # the line, then what it set
    assert "total returned 4" in trace and "mean returned 2.0" in trace
    assert "test_mean(" not in trace and "frozen" not in trace  # the test's and Python's frames left out
    assert (tmp_path / "calc.py").read_text() == CALC  # nothing applied back


def test_switched_on_round_one_is_shown_the_trace_and_off_it_is_not(tmp_path: Path) -> None:
    fixed = files(("calc.py", CALC.replace("result = x", "result += x")))
    _project(tmp_path)
    _, _, engine = crew(
        tmp_path, "The test test_total fails, fix it.", coder=[fixed] * 4, with_=frozenset({"failing_trace"})
    )
    prompt = engine.calls_of("coder")[0].last
    assert (
        "What the code under test did on test_calc.py::test_total" in prompt and "total returned 3" in prompt
    )
    other = tmp_path / "other"
    other.mkdir()
    _project(other)
    _, _, engine = crew(other, "The test test_total fails, fix it.", coder=[fixed] * 4)
    assert "What the code under test did" not in engine.calls_of("coder")[0].last
