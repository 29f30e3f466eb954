"""Rule data_files_kept: a data file the request does not ask to change is never rewritten."""

from __future__ import annotations

from agents.rules.rule import Stage, rule
from agents.rules.write.draft import WriteDraft


@rule(
    "data_files_kept",
    Stage.WRITE,
    reason="a data file the request does not ask to change is never rewritten",
    evidence="tests/test_edit_guard.py",
)
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
