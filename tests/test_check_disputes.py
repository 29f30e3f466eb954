"""The second opinion on the reviewer's failed checks (agents/rules/settle/check_disputes.py): which failures
it may settle, how an answer is read, and when a check is dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.request import RequestFacts
from agents.rules.settle.check_disputes import (
    CheckDisputes,
    answer_expression,
    answer_program,
    disputes,
    evaluate_in_sandbox,
    question,
    same,
    without,
)
from tools.sandbox import RunLimits

CHECKS = "s = Stack()\nassert c_to_f(37) == 99.4\nassert s.pop() == 2\nassert f([]) == ValueError"
FAILURES = [
    "assert c_to_f(37) == 99.4  ->  AssertionError: got 98.6, expected 99.4",
    "assert s.pop() == 2  ->  AssertionError: got 1, expected 2",  # state the question cannot show
    "assert f([]) == ValueError  ->  AssertionError: got 0, expected ValueError to be raised",
    "assert g(1) == 2  ->  AssertionError: got <object at 0x1>, expected 2",  # no literal value
    "assert h(1) == 2  ->  ZeroDivisionError: division by zero",
]


def test_only_plain_value_failures_are_disputed() -> None:
    [found] = disputes(CHECKS, FAILURES)
    assert (found.check, found.call, found.got, found.expected) == (
        "assert c_to_f(37) == 99.4",
        "c_to_f(37)",
        98.6,
        99.4,
    )


@pytest.mark.parametrize(
    ("reply", "expression"),
    [
        ("```python\n(37 * 9/5) + 32\n```", "37 * 9 / 5 + 32"),
        ("It is\n```python\nc_to_f(37) == 98.6\n```", "98.6"),
        ("```python\nGuido\n```", "'Guido'"),  # a bare word is the text it names
        ("`'a-b'`", "'a-b'"),
        ("```python\nsum([1, 2]) / len([1, 2])\n```", "sum([1, 2]) / len([1, 2])"),
        ("```python\ndef mean(xs):\n    return sum(xs) / len(xs)\n```", None),  # code, not a value
        ("```python\nc_to_f(37)\n```", None),  # calls the code under dispute
        ("```python\nopen('notes.txt').read()\n```", None),
        ("```python\n().__class__.__bases__\n```", None),
        ("```python\n__import__('os').system('id')\n```", None),
        ("", None),
        ("```python\n(2 + 4) / 2\n```", None),  # the question's own example, echoed
        ("```python\n'a'+'b'\n```", None),
        ("```python\n(2 + 4) / 3\n```", "(2 + 4) / 3"),
    ],
)
def test_an_answer_is_a_pure_expression_or_nothing(reply: str, expression: str | None) -> None:
    assert answer_expression(reply) == expression


def test_values_compare_as_checks_do() -> None:
    assert same(98.60000000001, 98.6) and same({"a": [0.1 + 0.2]}, {"a": [0.3]})
    assert not same(1, True) and not same([1], (1,)) and not same("1", 1)


def test_code_for_an_answer_is_run_on_the_call() -> None:
    # Asked about an edit, the 1.5B wrote the function again: its value for the call is the answer.
    reply = "```python\ndef mean(xs):\n    return sum(xs) / len(xs)\n```"
    program = answer_program(reply, "mean([1, 2, 6])")
    assert program is not None and evaluate_in_sandbox(program, RunLimits()) == (True, 3.0)
    assert answer_program(reply, "median([1, 2])") is None  # it does not define what is asked
    assert (
        answer_program("```python\nStack\n```", "Stack().pop()")
        == "print('LOCALCREW-VALUE ' + repr('Stack'))"
    )


def test_the_sandbox_runs_an_answer_within_its_limits_beside_the_data_files_only(tmp_path: Path) -> None:
    program = answer_program("```python\nsum([1, 2]) / 2\n```", "f()")
    assert program is not None and evaluate_in_sandbox(program, RunLimits()) == (True, 1.5)
    ok, _ = evaluate_in_sandbox("print('LOCALCREW-VALUE', 10 ** 10 ** 10)", RunLimits(wall_s=1.0))
    assert not ok
    reads = "import os\nprint('LOCALCREW-VALUE ' + repr(sorted(os.listdir('.'))))"
    outside = tmp_path / "outside.csv"
    files = {"scores.csv": "name,score\n", str(outside): "x\n", "../up.csv": "x\n"}
    ok, listed = evaluate_in_sandbox(reads, RunLimits(), files)
    assert ok and listed == ["scores.csv"] and not outside.exists()


def test_the_question_shows_neither_value() -> None:
    text = question("c_to_f(37)", RequestFacts.read("Write c_to_f(c)."), "temps.csv:\nc\n37\n")
    assert "c_to_f(37)" in text and "temps.csv" in text
    assert "99.4" not in text and "98.6" not in text


def test_a_check_is_dropped_only_when_the_answer_is_the_codes_value() -> None:
    answers = {"37": "```python\n37 * 9 / 5 + 32\n```"}
    asked: list[str] = []

    def ask(call: str, prompt: str) -> str:
        assert call == "c_to_f(37)"
        asked.append(prompt)
        return next(reply for key, reply in answers.items() if key in prompt)

    def evaluate(program: str) -> tuple[bool, object]:
        return evaluate_in_sandbox(program, RunLimits())

    opinions = CheckDisputes()
    checks = "assert c_to_f(37) == 99.4"
    failures = ["assert c_to_f(37) == 99.4  ->  AssertionError: got 98.6, expected 99.4"]
    assert opinions.settle(
        checks, failures, RequestFacts.read("Write c_to_f."), ask=ask, evaluate=evaluate
    ) == [checks]
    # Asked once per value the code gave: the same question gets the same answer.
    assert opinions.settle(
        checks, failures, RequestFacts.read("Write c_to_f."), ask=ask, evaluate=evaluate
    ) == [checks]
    assert len(asked) == 1
    # The code gives another value now: the answer (98.6) is not it, so the check stays.
    other = ["assert c_to_f(37) == 99.4  ->  AssertionError: got 37.0, expected 99.4"]
    assert (
        opinions.settle(checks, other, RequestFacts.read("Write c_to_f."), ask=ask, evaluate=evaluate) == []
    )
    # An answer that is the reviewer's value keeps the check too.
    answers["37"] = "```python\n99.4\n```"
    assert (
        CheckDisputes().settle(
            checks, failures, RequestFacts.read("Write c_to_f."), ask=ask, evaluate=evaluate
        )
        == []
    )


def test_without_drops_statements_and_leaves_nothing_without_an_assert() -> None:
    checks = "x = 2\nassert f(x) == 4\nassert g(1) == 2"
    assert without(checks, ["assert f(x) == 4"]) == "x = 2\nassert g(1) == 2"
    assert without(checks, ["assert f(x) == 4", "assert g(1) == 2"]) == ""


def test_a_second_implementation_answers_every_later_call_of_its_function() -> None:
    # Acceptance request 17: the 1.5B wrote a right count_words for the first question, then
    # answered count_words("") with "1", the number the request gave as the bug.
    replies = ["```python\ndef count_words(s):\n    return len(s.split())\n```", "```python\n1\n```"]
    asked: list[str] = []

    def ask(call: str, prompt: str) -> str:
        asked.append(call)
        return replies[len(asked) - 1]

    checks = 'assert count_words(" a b ") == 3\nassert count_words("") == 0\nassert count_words("a  b") == 2'
    failures = [
        'assert count_words(" a b ") == 3  ->  AssertionError: got 2, expected 3',
        'assert count_words("") == 0  ->  AssertionError: got 1, expected 0',
        'assert count_words("a  b") == 2  ->  AssertionError: got 3, expected 2',
    ]
    opinions = CheckDisputes()
    dropped = opinions.settle(
        checks,
        failures,
        RequestFacts.read("Fix count_words."),
        ask=ask,
        evaluate=lambda p: evaluate_in_sandbox(p, RunLimits()),
    )
    assert dropped == ['assert count_words(" a b ") == 3']  # the implementation gives the code's 2
    assert asked == ["count_words(' a b ')"]  # the other two ran on it, unasked
    assert "count_words" in opinions.implementations
