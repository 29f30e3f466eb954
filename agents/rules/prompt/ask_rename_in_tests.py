"""Rule ask_rename_in_tests: a rename whose old name the user's tests use, where the request does
not let the tests change, is answered with a question before anything is written.

Seen in chromium (issue 58): "Rename calc to multiply and update every use" in a project whose test
imports calc. Every round was refused, since a round either edits the user's test or leaves it
importing a name that no longer exists; three rounds of the model's time ended in "nothing was
changed". Whether the old name stays as an alias or the user updates the tests is theirs to say.
"""

from __future__ import annotations

import ast

from agents.request import RequestFacts
from agents.rules.rule import Stage, rule


def names_used(source: str) -> set[str]:
    """Every name the code reads, imports or calls as an attribute; nothing when it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.alias):
            found.add(node.name.rsplit(".", 1)[-1])
    return found


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
    using = {rel: sorted(set(facts.renamed) & names_used(text)) for rel, text in sorted(tests.items())}
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
