"""Rule definitions_kept: a write that drops definitions is merged in place or refused."""

from __future__ import annotations

from agents.request import RequestFacts
from agents.rules.rule import Stage, rule
from agents.rules.write.draft import WriteDraft
from agents.rules.write.edit_guard import MAIN_GUARD, lost_definitions
from agents.source.definition_merge import merge_definitions

_MAIN_BLOCK = 'the `if __name__ == "__main__":` block'


@rule(
    "definitions_kept",
    Stage.WRITE,
    reason="a write that drops definitions is merged in place or refused",
    evidence="tests/test_definition_merge.py",
)
def definitions_kept(draft: WriteDraft) -> None:
    """A write that leaves out definitions the file has (and the request does not drop) applies the
    given definitions in place; refused when that does not keep them either."""
    if not draft.python or draft.original is None:
        return
    facts = draft.facts
    lost = lost_definitions(draft.original, draft.content, facts)
    if not lost:
        return
    current = draft.read_current()
    merged = merge_definitions(
        current if current is not None else draft.original,
        draft.content,
        set(facts.removable),
        keep_statements=facts.output,
    )
    if merged is not None and not lost_definitions(draft.original, merged.text, facts):
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
