"""Rule defined_twice: a function or method the run defines a second time in one scope is sent
back (the 0.5B's follow-up appended a second `def count(self)` to the class)."""

from tests.rule_helpers import scan_with

STORE = (
    "class Store:\n    def __init__(self):\n        self.items = {}\n\n"
    "    def count(self):\n        return len(self.items)\n"
)
TWICE = STORE + "\n    def count(self):\n        return sum(self.items.values())\n"


def test_a_method_the_run_defines_twice_is_told_with_its_lines() -> None:
    problems = scan_with(
        "Make count return the total quantity", {"store.py": TWICE}, originals={"store.py": STORE}
    )
    assert [p for p in problems if "times" in p] == [
        "store.py defines Store.count 2 times (lines 5, 8): Python keeps only the last."
        " Change the one definition in place and leave one."
    ]


def test_a_top_level_function_defined_twice_is_told_too() -> None:
    source = "def total(rows):\n    return 0\n\n\ndef total(rows):\n    return sum(rows)\n"
    problems = scan_with(
        "Fix total", {"report.py": source}, originals={"report.py": "def total(rows):\n    return 0\n"}
    )
    assert any("report.py defines total 2 times" in p for p in problems)


def test_repeats_on_purpose_or_from_before_the_run_or_switched_off_are_not_told() -> None:
    setter = (
        "class A:\n    @property\n    def x(self):\n        return 1\n\n"
        "    @x.setter\n    def x(self, value):\n        pass\n"
    )
    overload = (
        "from typing import overload\n\n\n@overload\ndef f(a: int) -> int: ...\n\n\n"
        "@overload\ndef f(a: str) -> str: ...\n\n\ndef f(a):\n    return a\n"
    )
    assert not [p for p in scan_with("x", {"a.py": setter, "b.py": overload}) if "times" in p]
    assert not [p for p in scan_with("x", {"store.py": TWICE}, originals={"store.py": TWICE}) if "times" in p]
    off = scan_with(
        "x", {"store.py": TWICE}, originals={"store.py": STORE}, without=frozenset({"defined_twice"})
    )
    assert not [p for p in off if "times" in p]
    nested = (
        "def outer():\n    def inner():\n        return 1\n\n"
        "    def inner():\n        return 2\n\n    return inner\n"
    )
    assert not [p for p in scan_with("x", {"c.py": nested}) if "times" in p]
