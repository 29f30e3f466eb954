"""Rule plain_calls: a check wanting a value the request never promises (`s.push(1) == 1`) runs as
a plain call instead."""

from pathlib import Path

from tests.crew_script import checks, crew, files, notices

STACK = (
    "class Stack:\n    def __init__(self):\n        self.items = []\n\n"
    "    def push(self, item):\n        self.items.append(item)\n\n"
    "    def pop(self):\n        return self.items.pop()\n"
)
REQUEST = (
    "Write stack.py with a class Stack: push(item) adds an item, pop() removes and returns the last one."
)
CHECKS = checks("s = Stack()", "assert s.push(1) == 1", "assert s.push(2) == 2", "assert s.pop() == 2")


def test_a_check_on_an_unpromised_value_runs_as_a_plain_call(tmp_path: Path) -> None:
    summary, bus, _ = crew(tmp_path, REQUEST, coder=[files(("stack.py", STACK))], reviewer=[CHECKS])
    assert summary.approved and sum("runs as a plain call" in n for n in notices(bus)) == 2


def test_switched_off_the_check_fails_the_run(tmp_path: Path) -> None:
    off = frozenset({"plain_calls", "second_opinion"})
    summary, bus, _ = crew(
        tmp_path, REQUEST, coder=[files(("stack.py", STACK))], reviewer=[CHECKS], without=off
    )
    assert not summary.approved and not any("plain call" in n for n in notices(bus))
