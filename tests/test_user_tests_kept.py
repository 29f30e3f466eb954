"""Rule user_tests_kept: the user's tests are ground truth. Asked "The tests in test_durations.py
fail. Fix durations.py so they pass.", the 1.5B changed the test's expected value instead."""

from pathlib import Path

import pytest

from agents.request import RequestFacts
from tests.rule_helpers import write_with

TEST = "from durations import minutes\n\n\ndef test_hours():\n    assert minutes('1h30') == 90 * 60\n"
BENT = TEST.replace("90 * 60", "60 * 60")
FIX = "Fix durations.py so the tests in test_durations.py pass."


def test_a_test_file_is_not_rewritten_unless_the_request_asks(tmp_path: Path) -> None:
    (tmp_path / "test_durations.py").write_text(TEST)
    answer, after = write_with(tmp_path, "test_durations.py", BENT, FIX)
    assert answer.startswith("Error") and "one of the user's tests" in answer
    assert after == TEST


def test_a_file_under_tests_counts_as_a_test(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "helpers.py").write_text("def check(x):\n    assert x > 0\n")
    answer, _ = write_with(tmp_path, "tests/helpers.py", "def check(x):\n    pass\n", "Make check() faster.")
    assert answer.startswith("Error")


def test_an_assert_in_the_users_code_is_not_weakened(tmp_path: Path) -> None:
    (tmp_path / "calc.py").write_text("def half(x):\n    assert x % 2 == 0\n    return x // 2\n")
    answer, after = write_with(
        tmp_path, "calc.py", "def half(x):\n    return x // 2\n", "Make half() faster."
    )
    assert answer.startswith("Error") and "assert" in answer
    assert "assert x % 2 == 0" in (after or "")


def test_new_tests_and_asked_for_changes_are_written(tmp_path: Path) -> None:
    answer, after = write_with(tmp_path, "test_new.py", TEST, FIX)  # a new file: nothing to weaken
    assert not answer.startswith("Error") and after == TEST
    (tmp_path / "test_durations.py").write_text(TEST)
    asked = "The expected value in test_durations.py is wrong: update the test to expect 3600."
    answer, after = write_with(tmp_path, "test_durations.py", BENT, asked)
    assert not answer.startswith("Error") and after == BENT


def test_asked_for_a_new_test_the_file_grows_and_its_asserts_stay(tmp_path: Path) -> None:
    # In the IDE: "Add a function median(marks) to grades.py ..., and a test for it in
    # tests/test_grades.py" had the test refused as an unasked change, three rounds running.
    (tmp_path / "test_durations.py").write_text(TEST)
    asked = "Add seconds(text) to durations.py, and a test for it in test_durations.py."
    grown = TEST + "\n\ndef test_seconds():\n    assert seconds('2s') == 2\n"
    answer, after = write_with(tmp_path, "test_durations.py", grown, asked)
    assert not answer.startswith("Error") and after == grown
    answer, after = write_with(tmp_path, "test_durations.py", BENT + grown[len(TEST) :], asked)
    assert answer.startswith("Error") and "assert" in answer and after == grown


def test_switched_off_the_test_is_rewritten(tmp_path: Path) -> None:
    (tmp_path / "test_durations.py").write_text(TEST)
    answer, after = write_with(tmp_path, "test_durations.py", BENT, FIX, frozenset({"user_tests_kept"}))
    assert not answer.startswith("Error") and after == BENT


@pytest.mark.parametrize(
    ("request_text", "may"),
    [
        ("The tests in test_durations.py fail. Fix durations.py so they pass.", False),
        ("Fix the failing test in test_durations.py: it expects the wrong value.", True),
        ("Fix the failing test.", False),
        ("pytest says test_total fails, fix the failing test please", False),
        ("Fix the broken tests in test_cart.py", False),
        ("Fix test_total: the expected value is wrong, it should be 12.", True),
        ("Update test_durations.py to expect 3600.", True),
        ("Write pytest tests for stats.py in test_stats.py.", True),
        ("Add a function mode() to stats.py.", False),
        ("Remove the assert in half() and raise ValueError instead.", True),
        ("Rename the function letter to letter_grade everywhere, the tests included.", True),
        ("Rename letter to letter_grade, including the tests.", True),
        ("Rename letter to letter_grade everywhere.", False),
        ("Add median() to grades.py. Run the tests too.", False),
    ],
)
def test_what_counts_as_asking_to_change_tests(request_text: str, may: bool) -> None:
    assert RequestFacts.read(request_text).may_change_tests is may
