"""Rule ask_rename_in_tests: a rename whose old name the user's tests use, where the request does
not let the tests change, is answered with a question before anything is written.

Seen in chromium (issue 58): "Rename calc to multiply and update every use" in a project whose test
imports calc. Every round was refused, since a round either edits the user's test or leaves it
importing a name that no longer exists; three rounds of the model's time ended in "nothing was
changed". Whether the old name stays as an alias or the user updates the tests is theirs to say.
"""

from __future__ import annotations

from agents.request import RequestFacts
from agents.rules.rule import Stage, rule
from agents.source.used_names import names_used_in


@rule(
    "ask_rename_in_tests",
    Stage.PROMPT,
    reason=(
        "a rename whose old name the user's tests use, where the request does not let the tests change,"
        " gets a question before anything is written"
    ),
    evidence="tests/test_ask_rename_in_tests.py",
)
def ask_rename_in_tests(facts: RequestFacts, tests: dict[str, str]) -> str:
    """The question for such a rename ('' if none). `tests`: the user's test files' text."""
    if not facts.renamed or facts.may_change_tests or facts.keeps_old_name:
        return ""
    using = {
        rel: sorted(set(facts.renamed) & names_used_in(text, imports=True))
        for rel, text in sorted(tests.items())
    }
    using = {rel: olds for rel, olds in using.items() if olds}
    if not using:
        return ""
    olds = sorted({old for names in using.values() for old in names})
    pairs = ", ".join(f"{old} to {facts.renamed[old]}" for old in olds)
    where = ", ".join(f"`{rel}`" for rel in using)  # a path is no Markdown
    return (
        f"Your tests use the old name ({where}), and the request renames {pairs} without letting the"
        f" tests change. Should I keep the old name as an alias of the new one, or may I update the"
        f" tests too? Nothing was written."
    )
