"""The request, read once: one value every rule of a run receives instead of the raw words.

The readers themselves stay beside the rules that first needed them (agents/llm/roles.py,
agents/rules/write/edit_guard.py); this is the one place a run calls them, so what a request "names", "asks
for" or "lets go" is decided once per run, and a rule that wants a new fact adds a field here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from agents.llm.roles import asks_for_output, asks_for_tests, files_named_in
from agents.rules.write.edit_guard import asks_to_change, removable_names, renames

# Words that ask for a test itself to change ("update test_x.py", "fix the test for parse"), as
# against "the tests fail: fix the code so they pass", which asks for the code to change.
_CHANGES_TESTS = re.compile(
    r"\b(?:fix|fixes|change|update|edit|correct|rewrite|modify|adjust|replace|remove|delete|rename)\s+"
    r"(?:the\s+|a\s+|this\s+|that\s+)?(?:failing\s+|broken\s+|wrong\s+)?"
    r"(?:test\b|tests\b|test_\w+(?:\.py)?|\w+_test\.py|assert)",
    re.I,
)
_ABOUT_TESTS = re.compile(r"\btests?\b|\btest_\w+|\w+_test\.py\b|\bpytest\b", re.I)


def is_test_file(rel: str) -> bool:
    """A file pytest collects by its name."""
    name = Path(rel).name
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def is_user_test(rel: str) -> bool:
    """A test file or any Python file under a tests/ folder: the user's ground truth."""
    parts = Path(rel).parts
    return is_test_file(rel) or (rel.endswith(".py") and any(p in ("tests", "test") for p in parts[:-1]))


@dataclass(frozen=True)
class RequestFacts:
    """What a request says, for the rules: its words stay in `text` for prompts only."""

    text: str
    files: tuple[str, ...] = ()  # file names it writes, in order
    calls: frozenset[str] = frozenset()  # names it writes as calls: `div(a, b)`
    output: bool = False  # it asks for something printed
    tests: bool = False  # it asks for tests to be written
    test_changes: bool = False  # it asks for an existing test to change
    about_tests: bool = False  # it speaks of tests at all ("so the tests pass")
    renamed: dict[str, str] = field(default_factory=dict)  # {old: new}
    removable: frozenset[str] = frozenset()  # names it lets a rewrite drop

    @classmethod
    def read(cls, text: str) -> RequestFacts:
        text = text.strip()
        return cls(
            text=text,
            files=tuple(files_named_in(text)),
            calls=frozenset(re.findall(r"\b([A-Za-z_]\w*)\(", text)),
            output=asks_for_output(text),
            tests=asks_for_tests(text),
            test_changes=bool(_CHANGES_TESTS.search(text)),
            about_tests=bool(_ABOUT_TESTS.search(text)),
            renamed=renames(text),
            removable=frozenset(removable_names(text)),
        )

    @cached_property
    def may_change_tests(self) -> bool:
        """Whether the user's tests may be edited: asked to write tests, or to change one."""
        return self.tests or self.test_changes

    def asks_to_change(self, path: str) -> bool:
        """Whether a clause naming `path` also asks for a change (agents/rules/write/edit_guard)."""
        return asks_to_change(self.text, path)

    def names_file(self, path: str) -> bool:
        return path in self.files or Path(path).name in {Path(f).name for f in self.files}
