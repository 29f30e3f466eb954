"""Rule user_tests_kept: the user's tests are ground truth, never edited unless the request asks."""

from __future__ import annotations

import ast

from agents.request import is_user_test
from agents.rules.rule import Stage, rule
from agents.rules.write.draft import WriteDraft


def _asserts(source: str) -> list[str] | None:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    return [ast.dump(node) for node in ast.walk(tree) if isinstance(node, ast.Assert)]


@rule(
    "user_tests_kept",
    Stage.WRITE,
    reason="the user's tests are ground truth: never edited unless the request asks",
    evidence="tests/test_user_tests_kept.py",
)
def user_tests_kept(draft: WriteDraft) -> None:
    """The user's tests are ground truth: an existing test file is never rewritten, and no assert of
    an existing file is changed or dropped, unless the request asks to change tests. Asked "The tests
    in test_durations.py fail. Fix durations.py so they pass.", the 1.5B changed the test's expected
    value from 5400 to 3600 and approved itself."""
    if not draft.python or draft.original is None or draft.facts.test_changes:
        return
    if draft.content.rstrip("\n") == draft.original.rstrip("\n"):
        return
    if is_user_test(draft.path) and not draft.facts.tests:
        raise ValueError(
            f"not written: {draft.path} is one of the user's tests, which say what the code must do;"
            " the request does not ask to change them. Change the code under test instead."
        )
    # Asked for new tests, a test file may grow; its existing asserts stay as they are.
    before, after = _asserts(draft.original), _asserts(draft.content)
    if before and after is not None and any(line not in after for line in before):
        raise ValueError(
            f"not written: this changes or drops an assert in {draft.path}, and the request does not"
            " ask to change checks. Keep every existing assert as it is and fix the code instead."
        )
