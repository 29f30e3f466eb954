"""Rule reviewer_checks: where no docstring example exists, the reviewer writes asserts."""

from pathlib import Path

from tests.crew_script import checks, crew, files

WRONG = "def add(a, b):\n    return a - b\n"
REQUEST = "Write calc.py with add(a, b) that returns the sum."


def test_the_reviewers_asserts_catch_what_the_run_does_not(tmp_path: Path) -> None:
    summary, _, engine = crew(
        tmp_path,
        REQUEST,
        coder=[files(("calc.py", WRONG))],
        reviewer=[checks("assert add(2, 3) == 5"), "```python\n2 + 3\n```"],
    )
    assert engine.calls_of("reviewer") and not summary.checks_passed


def test_switched_off_the_runs_decide(tmp_path: Path) -> None:
    summary, _, engine = crew(
        tmp_path, REQUEST, coder=[files(("calc.py", WRONG))], without=frozenset({"reviewer_checks"})
    )
    assert not engine.calls_of("reviewer") and summary.checks_passed
