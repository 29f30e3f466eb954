"""The reviewer's own version of a failing function (agents/rules/settle/reviewer_version.py): where it may go
in, and that it is tried against the checks away from the workspace."""

from __future__ import annotations

from agents.rules.settle.reviewer_version import (
    Candidate,
    candidates,
    outcome_beside,
    passes_every_check,
    still_failing_as_before,
    with_parameters_of,
)
from tools.sandbox import RunLimits

WORDS = (
    "import os\n\n\ndef count_words(text):\n    return len(text.split(' '))\n\n\n"
    "def shout(text):\n    return text.upper()\n"
)
RIGHT = "def count_words(s):\n    return len(s.split())\n"
FAILED = ["assert count_words('a  b') == 2  ->  AssertionError: got 3, expected 2"]


def test_the_failing_function_alone_is_replaced_and_the_rest_kept() -> None:
    sources = {"words.py": WORDS, "other.py": "x = 1\n"}
    [found] = candidates({"count_words": RIGHT}, sources, FAILED, sources)
    assert found.path == "words.py" and found.names == ["count_words"]
    # In place, with the file's own parameter name: a caller passing text= keeps working.
    assert found.text == WORDS.replace("text.split(' ')", "text.split()")


def test_no_candidate_where_it_would_change_more_than_the_failing_function() -> None:
    also_shout = RIGHT + "\n\ndef shout(text):\n    return text\n"
    words = {"words.py": WORDS}
    assert candidates({"count_words": also_shout}, words, FAILED, words) == []
    # A function whose checks pass is not replaced, and one the file lacks is not added.
    assert candidates({"shout": "def shout(t):\n    return t.upper()\n"}, words, FAILED, words) == []
    assert candidates({"count_words": RIGHT}, {"other.py": "x = 1\n"}, FAILED, {"other.py": None}) == []
    # A function the run wrote new is the coder's against the reviewer's: no tie-breaker.
    assert candidates({"count_words": RIGHT}, words, FAILED, {"words.py": None}) == []
    assert candidates({"count_words": RIGHT}, words, FAILED, {"words.py": "import os\n"}) == []


def test_a_candidate_is_tried_against_every_check_beside_the_project_files() -> None:
    checks = "assert count_words('a  b') == 2\nassert count_words('') == 0\nassert shout('a') == 'A'"
    right = Candidate("words.py", WORDS.replace("text.split(' ')", "text.split()"), ["count_words"])
    beside = {"words.py": WORDS}
    assert passes_every_check(right, beside, ["words"], checks, RunLimits())
    wrong = Candidate("words.py", WORDS.replace("text.split(' ')", "text.split(' ') * 2"), ["count_words"])
    assert not passes_every_check(wrong, beside, ["words"], checks, RunLimits())
    # The module it imports must be there: the project's files travel with it.
    importing = Candidate("main.py", "from words import count_words\n", ["count_words"])
    assert passes_every_check(
        importing, {"words.py": right.text}, ["main"], "assert count_words('a b') == 2", RunLimits()
    )
    assert not passes_every_check(importing, {}, ["main"], "assert count_words('a b') == 2", RunLimits())


def test_a_check_that_fails_as_it_did_before_the_run_says_the_bug_is_still_there() -> None:
    checks = "assert count_words('a  b') == 2\nassert shout('a') == 'A'"
    before = outcome_beside({"words.py": WORDS}, ["words"], checks, RunLimits())
    assert before is not None and before.failures == FAILED
    assert still_failing_as_before(FAILED, before)
    changed = ["assert count_words('a  b') == 2  ->  AssertionError: got 1, expected 2"]
    assert not still_failing_as_before(changed, before) and not still_failing_as_before(FAILED, None)


def test_the_reviewers_version_takes_the_original_parameter_names_or_is_not_used() -> None:
    original = "def area(width, height=1, *, unit='m'):\n    return width\n"
    renamed = with_parameters_of("def area(w, h=2, *, u='cm'):\n    return w * h  # area\n", "area", original)
    assert renamed == "def area(width, height=2, *, unit='cm'):\n    return width * height\n"
    assert with_parameters_of("def area(w, h, u):\n    return w\n", "area", original) is None  # kinds differ
    # `height` is already a local of the new body: renaming h to it would change what it computes.
    clash = "def area(w, h=1, *, unit='m'):\n    height = 3\n    return w * height * h\n"
    assert with_parameters_of(clash, "area", original) is None
    same = "def area(width, height=1, *, unit='m'):\n    return width * height  # kept\n"
    assert with_parameters_of(same, "area", original) == same
