"""Rule fix_or_leave: where the project's failing tests judge the request, a round that makes none of
them pass is not kept, and when no round did, the project stays as it was (seen in the IDE: the
1.5B's bounds check in remove() was kept though the test it was asked to fix still failed)."""

from pathlib import Path

from tests.crew_script import crew, files, notices

STORE = (
    "class Store:\n    def __init__(self):\n        self.items = ['a', 'b', 'c']\n\n"
    '    def remove(self, number):\n        """Remove the item at 1-based `number`."""\n'
    "        return self.items.pop(number)\n"
)
TEST = (
    "from store import Store\n\n\ndef test_remove():\n    s = Store()\n    s.remove(1)\n"
    "    assert s.items == ['b', 'c']\n\n\ndef test_three():\n    assert len(Store().items) == 3\n"
)
GUARDED = STORE.replace(
    "        return self.items.pop(number)\n",
    "        if 0 <= number < len(self.items):\n            return self.items.pop(number)\n"
    "        raise IndexError(number)\n",
)
FIXED = STORE.replace("pop(number)", "pop(number - 1)")
REQUEST = "The test test_remove fails. Fix it."


def _project(root: Path) -> None:
    (root / "store.py").write_text(STORE)
    (root / "test_store.py").write_text(TEST)


def test_rounds_that_fix_nothing_leave_the_project_as_it_was(tmp_path: Path) -> None:
    _project(tmp_path)
    summary, bus, _ = crew(tmp_path, REQUEST, coder=[files(("store.py", GUARDED))] * 8, rounds=2)
    assert (tmp_path / "store.py").read_text() == STORE
    assert not summary.checks_passed
    assert any("none made test_store.py::test_remove pass" in n for n in notices(bus))
    assert "Nothing was changed: no try made the failing tests" in summary.message  # not "broke a test"


def test_a_round_that_fixes_the_test_is_kept(tmp_path: Path) -> None:
    _project(tmp_path)
    summary, _, _ = crew(tmp_path, REQUEST, coder=[files(("store.py", FIXED))], rounds=2)
    assert (tmp_path / "store.py").read_text() == FIXED and summary.checks_passed


def test_switched_off_a_round_that_fixes_nothing_may_stay(tmp_path: Path) -> None:
    _project(tmp_path)
    without = frozenset({"fix_or_leave"})
    crew(tmp_path, REQUEST, coder=[files(("store.py", GUARDED))] * 8, rounds=2, without=without)
    assert (tmp_path / "store.py").read_text() == GUARDED
