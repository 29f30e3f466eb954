"""Blank lines a whole-file answer closes up come back; everything else is the answer's."""

from agents.blank_lines import restore_blank_lines

OLD = "def mean(values):\n    return sum(values) / len(values) + 1\n\n\ndef square(x):\n    return x * x\n"


def test_blank_lines_dropped_between_functions_are_put_back() -> None:
    new = (
        "def mean(values):\n    if not values:\n        raise ValueError('empty')\n"
        "    return sum(values) / len(values) + 1\n\ndef square(x):\n    return x * x\n"
    )
    restored = restore_blank_lines(OLD, new, "Make mean raise ValueError for an empty list.")
    assert restored == new.replace("\n\ndef square", "\n\n\ndef square")


def test_what_the_answer_changes_or_removes_stays_changed() -> None:
    new = "def mean(values):\n    return sum(values) / len(values)\n"  # square removed with its blanks
    assert restore_blank_lines(OLD, new, "Remove square and fix mean.") == new
    added = OLD + "\n\ndef cube(x):\n    return x ** 3\n"
    assert restore_blank_lines(OLD, added) == added


def test_a_request_about_layout_may_drop_blank_lines() -> None:
    new = OLD.replace("\n\n\n", "\n\n")
    assert restore_blank_lines(OLD, new, "Remove the extra blank lines") == new
    assert restore_blank_lines(OLD, new, "Reformat stats.py to PEP 8") == new
