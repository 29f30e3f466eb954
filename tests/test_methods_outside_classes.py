"""Rule methods_outside_classes: a method written at the top level of the file is sent back."""

from tests.rule_helpers import scan_with

STRAY = (
    "class Stack:\n    def __init__(self):\n        self.items = []\n\n\n"
    "def push(self, x):\n    self.items.append(x)\n"
)


def test_a_method_at_the_top_level_is_told_where_it_belongs() -> None:
    problems = scan_with("Add push() to Stack in stack.py", {"stack.py": STRAY})
    assert len(problems) == 1 and "push(self, ...)" in problems[0] and "class Stack" in problems[0]


def test_switched_off_nothing_is_told() -> None:
    assert (
        scan_with("Add push() to Stack", {"stack.py": STRAY}, without=frozenset({"methods_outside_classes"}))
        == []
    )
