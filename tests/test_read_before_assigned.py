"""Rule read_before_assigned: a name read in its own first assignment (UnboundLocalError)."""

from tests.rule_helpers import scan_with

CODE = "def total(xs):\n    total = total(xs[1:]) if xs else 0\n    return total\n"


def test_a_name_read_in_its_own_first_assignment_is_told() -> None:
    problems = scan_with("Write total() in calc.py", {"calc.py": CODE})
    assert len(problems) == 1 and "UnboundLocalError" in problems[0] and "total()" in problems[0]


def test_switched_off_nothing_is_told() -> None:
    assert (
        scan_with("Write total() in calc.py", {"calc.py": CODE}, without=frozenset({"read_before_assigned"}))
        == []
    )
