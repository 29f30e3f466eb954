"""The reviewer's assert lines: which statements are kept, and how the check program judges them."""

import subprocess
import sys
from pathlib import Path

from agents.rules.checks.written_checks import check_program, parse_checks, read_outcome

MODULE = """def mean(xs):
    if not xs:
        raise ValueError("empty")
    return sum(xs) / len(xs)


class Box:
    def __init__(self):
        self.items = []

    def put(self, item):
        self.items.append(item)
"""


def _run(tmp_path: Path, checks: str):
    (tmp_path / "stats.py").write_text(MODULE)
    result = subprocess.run(
        [sys.executable, "-c", check_program(["stats"], checks)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    outcome = read_outcome(result.stdout)
    assert outcome is not None, result.stderr
    return outcome, result.returncode


def test_each_assert_is_judged_on_its_own_with_the_values_seen(tmp_path: Path) -> None:
    outcome, code = _run(
        tmp_path, "assert mean([1, 2, 3]) == 2\nassert mean([1, 2]) == 2\nassert mean([0.1, 0.2]) == 0.15"
    )
    assert (outcome.passed, outcome.total, code) == (2, 3, 1)
    assert outcome.failures == ["assert mean([1, 2]) == 2  ->  AssertionError: got 1.5, expected 2"]


def test_equal_to_an_error_class_means_the_call_raises_it(tmp_path: Path) -> None:
    outcome, code = _run(tmp_path, "assert mean([]) == ValueError")
    assert (outcome.passed, outcome.total, code) == (1, 1, 0)
    outcome, _ = _run(tmp_path, "assert mean([4]) == ValueError\nassert mean([]) == KeyError")
    assert outcome.passed == 0 and outcome.total == 2
    assert "got 4.0, expected ValueError to be raised" in outcome.failures[0]
    assert "ValueError" in outcome.failures[1]  # another error than the one named is a failure


def test_an_error_inside_the_code_names_the_line_it_came_from(tmp_path: Path) -> None:
    outcome, _ = _run(tmp_path, "assert mean('ab') == 0\nassert median([1]) == 1")
    assert outcome.passed == 0 and outcome.total == 2
    assert "(at stats.py line 4: return sum(xs) / len(xs))" in outcome.failures[0]
    # An error in the check itself (a name the code lacks) points at no line of the code.
    assert "NameError" in outcome.failures[1] and "(at " not in outcome.failures[1]


def test_a_check_may_call_through_the_modules_name(tmp_path: Path) -> None:
    outcome, code = _run(tmp_path, "assert stats.mean([1, 3]) == 2\nassert mean([2]) == 2")
    assert (outcome.passed, outcome.total, code) == (2, 2, 0)


def test_statements_between_asserts_set_up_an_object(tmp_path: Path) -> None:
    checks = parse_checks("```python\n# a box\nbox = Box()\nbox.put(3)\nassert box.items == [3]\n```")
    assert checks == "box = Box()\nbox.put(3)\nassert box.items == [3]"
    outcome, code = _run(tmp_path, checks)
    assert (outcome.passed, outcome.total, code) == (1, 1, 0)


def test_code_instead_of_checks_is_no_check() -> None:
    # The 0.5B sometimes answers the reviewer's task with the code itself.
    assert parse_checks("```python\ndef mean(xs):\n    return sum(xs) / len(xs)\n```") == ""


def test_asserts_that_contradict_each_other_are_dropped_and_the_rest_kept() -> None:
    reply = (
        "```python\n"
        "assert count('app.log') == {'INFO': 1}\n"
        "assert count('app.log') == {'INFO': 2}\n"
        "s = Stack()\ns.push(1)\ns.push(2)\n"
        "assert s.pop() == 2\nassert s.pop() == 1\n"  # a method may give another value each time
        "assert count('x.log') == {}\nassert count('x.log') == {}\n"  # the same twice agrees: once
        "```"
    )
    assert parse_checks(reply).splitlines() == [
        "s = Stack()",
        "s.push(1)",
        "s.push(2)",
        "assert s.pop() == 2",
        "assert s.pop() == 1",
        "assert count('x.log') == {}",
    ]
    only_clashes = "```python\nassert f(1) == 1\nassert f(1) == 2\n```"
    assert parse_checks(only_clashes) == ""


def test_a_value_written_first_is_moved_to_the_right() -> None:
    # The check program reports the left side as the value got: the coder must see the call's.
    reply = "```python\nassert 16.09344 == miles_to_km(10)\nassert [1] == [1]\nassert f(1) == 2\n```"
    assert parse_checks(reply).splitlines() == [
        "assert miles_to_km(10) == 16.09344",
        "assert [1] == [1]",
        "assert f(1) == 2",
    ]


def test_a_repeated_pure_check_is_kept_once_and_a_repeated_pop_twice() -> None:
    lines = ["assert f(1) == 2", "assert f(1) == 2", "s = S()", "assert s.pop() == 1", "assert s.pop() == 1"]
    reply = "```python\n" + "\n".join(lines) + "\n```"
    assert parse_checks(reply).splitlines() == [
        "assert f(1) == 2",
        "s = S()",
        "assert s.pop() == 1",
        "assert s.pop() == 1",
    ]


def test_the_lines_that_set_up_an_object_do_not_count_against_the_asserts() -> None:
    setup = ["t = TodoList()", *(f"t.add('task {i}')" for i in range(6))]
    asserts = [f"assert t.count() == {i}" for i in range(10)]
    kept = parse_checks("```python\n" + "\n".join(setup + asserts) + "\n```").splitlines()
    assert kept == setup + asserts[:8]
