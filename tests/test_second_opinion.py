"""Rule second_opinion: a failed check the model, asked again without the code, answers as the code
does is dropped."""

from pathlib import Path

from tests.crew_script import checks, crew, files, notices

GOOD = "def total(xs):\n    return sum(xs)\n\n\nprint(total([1, 2]))\n"
REQUEST = "Write a program that sums a list and prints the sum."
WRONG = checks("assert total([1, 2]) == 4", "assert total([3]) == 3")  # the first is wrong


def test_a_disputed_check_is_dropped(tmp_path: Path) -> None:
    summary, bus, _ = crew(
        tmp_path, REQUEST, coder=[files(("total_calc.py", GOOD))], reviewer=[WRONG, "```python\n1 + 2\n```"]
    )
    assert summary.approved and any(
        "Dropped the check `assert total([1, 2]) == 4`" in n for n in notices(bus)
    )


def test_switched_off_the_wrong_check_stands(tmp_path: Path) -> None:
    summary, _, engine = crew(
        tmp_path,
        REQUEST,
        coder=[files(("total_calc.py", GOOD))],
        reviewer=[WRONG],
        without=frozenset({"second_opinion"}),
    )
    assert not summary.approved and len(engine.calls_of("reviewer")) == 1
