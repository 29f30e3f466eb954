"""The write stage's rules: each takes the draft of one file write and keeps, changes or refuses it.

A rule raises ValueError to refuse the write (its text is told to the coder), sets
`draft.as_it_was` when nothing needs writing, or changes `draft.content` and says how in
`draft.notes`. The write tool runs the rules the registry switches on, in its order
(agents/rules/registry.py, stage "write").
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field

from agents.request import RequestFacts, is_user_test
from agents.rules.write.edit_guard import MAIN_GUARD, lost_definitions
from agents.rules.write.example_usage import guard_example_usage
from agents.rules.write.missing_imports import add_missing_imports
from agents.rules.write.stray_methods import into_class
from agents.rules.write.untouched_text import keep_untouched
from agents.source.definition_merge import Merge, merge_definitions


@dataclass
class WriteDraft:
    path: str
    content: str
    original: str | None  # the file before the run (None: new, unreadable or too large)
    facts: RequestFacts
    read_current: Callable[[], str | None]  # the file as it is now
    merged: Merge | None = None
    as_it_was: bool = False  # the answer repeats the file: nothing to write
    notes: list[str] = field(default_factory=list)
    sources: Callable[[], dict[str, str]] = dict  # the project's Python files now, by path

    @property
    def python(self) -> bool:
        return self.path.endswith(".py")


def data_files_kept(draft: WriteDraft) -> None:
    """An existing data file the answer repeats is left; one it changes unasked is refused.

    Shown the project's files, the 1.5B wrote config.json back with its code: the same bytes that
    time, but a small model's copy of a data file can drop or invent rows."""
    if draft.python or draft.original is None:
        return
    if draft.content.rstrip("\n") == draft.original.rstrip("\n"):
        draft.as_it_was = True
        return
    if draft.facts.asks_to_change(draft.path):
        return
    raise ValueError(
        f"not written: {draft.path} holds the user's data, and the request does not ask to change it."
        " Leave it out of your answer; write only the code."
    )


def _asserts(source: str) -> list[str] | None:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    return [ast.dump(node) for node in ast.walk(tree) if isinstance(node, ast.Assert)]


def user_tests_kept(draft: WriteDraft) -> None:
    """The user's tests are ground truth: an existing test file is never rewritten, and no assert of
    an existing file is changed or dropped, unless the request asks to change tests. Asked "The tests
    in test_durations.py fail. Fix durations.py so they pass.", the 1.5B changed the test's expected
    value from 5400 to 3600 and approved itself."""
    if not draft.python or draft.original is None or draft.facts.may_change_tests:
        return
    if draft.content.rstrip("\n") == draft.original.rstrip("\n"):
        return
    if is_user_test(draft.path):
        raise ValueError(
            f"not written: {draft.path} is one of the user's tests, which say what the code must do;"
            " the request does not ask to change them. Change the code under test instead."
        )
    before, after = _asserts(draft.original), _asserts(draft.content)
    if before and after is not None and any(line not in after for line in before):
        raise ValueError(
            f"not written: this changes or drops an assert in {draft.path}, and the request does not"
            " ask to change checks. Keep every existing assert as it is and fix the code instead."
        )


_MAIN_BLOCK = 'the `if __name__ == "__main__":` block'


def definitions_kept(draft: WriteDraft) -> None:
    """A write that leaves out definitions the file has (and the request does not drop) applies the
    given definitions in place; refused when that does not keep them either."""
    if not draft.python or draft.original is None:
        return
    facts = draft.facts
    lost = lost_definitions(draft.original, draft.content, facts.text)
    if not lost:
        return
    current = draft.read_current()
    merged = merge_definitions(
        current if current is not None else draft.original,
        draft.content,
        set(facts.removable),
        keep_statements=facts.output,
    )
    if merged is not None and not lost_definitions(draft.original, merged.text, facts.text):
        draft.content, draft.merged = merged.text, merged
        draft.notes.append(f"edited in place: {merged.summary()}")
        return
    names = ", ".join(_MAIN_BLOCK if name == MAIN_GUARD else name for name in lost[:8])
    raise ValueError(
        f"not written: this would delete {names} from {draft.path}, and the request does not ask for"
        f" that.{_renamed_in_place(lost, facts)} Write only the functions you change, as valid"
        " Python, or the whole file with every existing function and class kept."
    )


def _renamed_in_place(lost: list[str], facts: RequestFacts) -> str:
    """The hint for a renamed definition that did not stay where it was."""
    hints = []
    for name in lost:
        *owner, last = name.split(".")
        if last in facts.renamed:
            place = f"in class {'.'.join(owner)}" if owner else "at the top level of the file"
            hints.append(f" Renamed, {last} stays where it was, {place}: define {facts.renamed[last]} there.")
    return "".join(hints)


def untouched_text(draft: WriteDraft) -> None:
    """A whole-file answer keeps the file's blank lines and docstring (agents/rules/write/untouched_text)."""
    if not draft.python or draft.merged is not None:
        return
    current = draft.read_current()
    if current is not None:
        draft.content = keep_untouched(current, draft.content, draft.facts.text)


def example_usage(draft: WriteDraft) -> None:
    """Example code appended to an existing module goes under `if __name__ == "__main__":`."""
    if not draft.python or draft.merged is not None or draft.original is None:
        return
    draft.content, guarded = guard_example_usage(draft.original, draft.content, draft.facts.text)
    if guarded:
        draft.notes.append('example code at its end put under if __name__ == "__main__"')


def stray_methods(draft: WriteDraft) -> None:
    """Methods written at the top level of a one-class file go back into the class."""
    if not draft.python:
        return
    draft.content, moved = into_class(draft.content, draft.original)
    if moved:
        draft.notes.append(f"{', '.join(moved)} moved into its class from the top level")


def imports_added(draft: WriteDraft) -> None:
    """A name the file now uses unbound, which one other module defines, gets its import."""
    if not draft.python:
        return
    draft.content, added = add_missing_imports(draft.content, draft.original, draft.path, draft.sources())
    if added:
        draft.notes.append(f"added {'; '.join(added)}")
