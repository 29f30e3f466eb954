"""Rule docstring_examples: examples in the code's docstrings run as asserts, and the reviewer is
not asked for its own."""

from pathlib import Path

from tests.crew_script import crew, files

WRONG = 'def add(a, b):\n    """Add two numbers.\n\n    >>> add(2, 3)\n    5\n    """\n    return a - b\n'


def test_a_docstring_example_is_a_check(tmp_path: Path) -> None:
    summary, _, engine = crew(tmp_path, "Write calc.py with add(a, b).", coder=[files(("calc.py", WRONG))])
    assert not engine.calls_of("reviewer") and not summary.checks_passed
    assert any("written checks" in line for line in summary.checks)


def test_switched_off_the_examples_are_not_run(tmp_path: Path) -> None:
    off = frozenset({"docstring_examples", "reviewer_checks"})
    summary, _, _ = crew(
        tmp_path, "Write calc.py with add(a, b).", coder=[files(("calc.py", WRONG))], without=off
    )
    assert summary.checks_passed
