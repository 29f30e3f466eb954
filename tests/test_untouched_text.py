"""Blank lines and the module docstring a whole-file answer drops come back; the rest is the answer's."""

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from agents.request import RequestFacts
from agents.rules.write.untouched_text import (
    keep_untouched,
    restore_blank_lines,
    restore_comments,
    restore_module_docstring,
)
from tests.crew_script import crew, files

OLD = "def mean(values):\n    return sum(values) / len(values) + 1\n\n\ndef square(x):\n    return x * x\n"


def test_blank_lines_dropped_between_functions_are_put_back() -> None:
    new = (
        "def mean(values):\n    if not values:\n        raise ValueError('empty')\n"
        "    return sum(values) / len(values) + 1\n\ndef square(x):\n    return x * x\n"
    )
    restored = restore_blank_lines(
        OLD, new, RequestFacts.read("Make mean raise ValueError for an empty list.")
    )
    assert restored == new.replace("\n\ndef square", "\n\n\ndef square")


def test_blank_lines_between_two_changed_lines_are_put_back() -> None:
    # The answer changed the line above the gap and the one below it, and dropped the gap.
    old = "def f1(x):\n    return x\n\n\ndef f2(x):\n    return 2 * x\n\n\ndef f3():\n    pass\n"
    new = "def f1(x):\n    return x + 1\ndef f2(y):\n    return 2 * y\n\ndef f3():\n    pass\n"
    want = "def f1(x):\n    return x + 1\n\n\ndef f2(y):\n    return 2 * y\n\n\ndef f3():\n    pass\n"
    assert restore_blank_lines(old, new) == want


def test_what_the_answer_changes_or_removes_stays_changed() -> None:
    new = "def mean(values):\n    return sum(values) / len(values)\n"  # square removed with its blanks
    assert restore_blank_lines(OLD, new, RequestFacts.read("Remove square and fix mean.")) == new
    added = OLD + "\n\ndef cube(x):\n    return x ** 3\n"
    assert restore_blank_lines(OLD, added) == added


def test_a_request_about_layout_may_drop_blank_lines() -> None:
    new = OLD.replace("\n\n\n", "\n\n")
    assert restore_blank_lines(OLD, new, RequestFacts.read("Remove the extra blank lines")) == new
    assert restore_blank_lines(OLD, new, RequestFacts.read("Reformat stats.py to PEP 8")) == new


@given(st.lists(st.sampled_from(["", "x = 1", "def f():", "    return 2", "  "]), max_size=12), st.data())
def test_only_blank_lines_are_ever_added(old_lines: list[str], data: st.DataObject) -> None:
    new_lines = data.draw(
        st.lists(st.sampled_from(["", "x = 1", "y = 3", "def f():", "    return 2"]), max_size=12)
    )
    old, new = "".join(f"{line}\n" for line in old_lines), "".join(f"{line}\n" for line in new_lines)
    restored = restore_blank_lines(old, new)
    assert [line for line in restored.splitlines() if line.strip()] == [
        line for line in new.splitlines() if line.strip()
    ]
    assert len(restored.splitlines()) <= len(new.splitlines()) + sum(not line.strip() for line in old_lines)


TODO = '#!/usr/bin/env python3\n"""A tiny to-do list."""\n\n\nclass TodoList:\n    pass\n'


def test_a_dropped_module_docstring_is_put_back_with_what_stood_above_it() -> None:
    answer = "from typing import List\nclass TodoList:\n    def done(self, i):\n        pass\n"
    assert (
        restore_module_docstring(TODO, answer, RequestFacts.read("Add done(i) to TodoList"))
        == TODO[: TODO.index("class")] + answer
    )
    assert keep_untouched(TODO, answer).startswith(
        '#!/usr/bin/env python3\n"""A tiny to-do list."""\n\n\nfrom'
    )


def test_the_answers_own_docstring_or_a_request_about_docstrings_wins() -> None:
    own = '"""Another docstring."""\nclass TodoList:\n    pass\n'
    assert restore_module_docstring(TODO, own) == own
    bare = "class TodoList:\n    pass\n"
    assert restore_module_docstring(TODO, bare, RequestFacts.read("Remove the module docstring")) == bare
    assert restore_module_docstring("x = 1\n", bare) == bare  # nothing to put back
    assert restore_module_docstring(TODO, "def (:\n") == "def (:\n"  # not Python: left to the checks


def test_a_file_keeps_its_own_ending_unless_the_request_is_about_layout() -> None:
    old = "import json\n\n\ndef save(path, items):\n    json.dump(items, open(path, 'w'))\n"
    assert keep_untouched(old, old + "\n") == old  # one byte more: the blank line before the next block
    assert keep_untouched(old, old.rstrip("\n")) == old
    no_end = old.rstrip("\n")
    assert keep_untouched(no_end, old) == no_end  # a file without a final newline stays without
    assert (
        keep_untouched(old, old + "\n\n", RequestFacts.read("Remove the blank lines at the end"))
        == old + "\n\n"
    )


# Issue 58: asked to "make it faster", the 0.5B answered report.py less the user's hand-written
# comment and nothing else; the round was kept.
COMMENTED = (
    "import csv\n\n\n# Amounts are strings in the CSV: float() them here, not in main.py.\n"
    "def total(rows):\n    # skip the header row\n    return sum(float(r[1]) for r in rows[1:])\n\n\n"
    "def mean(xs):\n    return sum(xs) / len(xs)  # callers never pass []\n"
)
UNCOMMENTED = (
    "import csv\n\ndef total(rows):\n    return sum(float(r[1]) for r in rows[1:])\n\ndef mean(xs):\n"
)
UNCOMMENTED += "    return sum(xs) / len(xs)\n"


def test_make_it_faster_answered_without_the_comments_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    (tmp_path / "report.py").write_text(COMMENTED)
    (tmp_path / "test_report.py").write_text(
        "from report import mean\n\n\ndef test_mean():\n    assert mean([2]) == 2.0\n"
    )
    crew(tmp_path, "make report.py faster", coder=[files(("report.py", UNCOMMENTED))])
    assert (tmp_path / "report.py").read_text() == COMMENTED


def test_comments_outside_the_changed_function_are_kept() -> None:
    changed = UNCOMMENTED.replace("return sum(xs) / len(xs)", "return sum(xs) / max(len(xs), 1)")
    kept = restore_comments(COMMENTED, changed, RequestFacts.read("Make mean safe for an empty list"))
    assert "# skip the header row" in kept and "# Amounts are strings" in kept
    assert "max(len(xs), 1)" in kept and "callers never pass" not in kept  # mean() is the answer's
    assert restore_comments(COMMENTED, changed, RequestFacts.read("Remove the comments")) == changed
