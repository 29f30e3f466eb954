"""Rule imports_added: a name the file uses unbound, which one other module defines, gets its import."""

from __future__ import annotations

from agents.rules.rule import Stage, rule
from agents.rules.write.draft import WriteDraft
from agents.rules.write.missing_imports import add_missing_imports


@rule(
    "imports_added",
    Stage.WRITE,
    reason="a name the file uses unbound, which one other module defines, gets its import",
    evidence="tests/test_imports_added.py",
)
def imports_added(draft: WriteDraft) -> None:
    """A name the file now uses unbound, which one other module defines, gets its import."""
    if not draft.python:
        return
    draft.content, added = add_missing_imports(draft.content, draft.original, draft.path, draft.sources())
    if added:
        draft.notes.append(f"added {'; '.join(added)}")
