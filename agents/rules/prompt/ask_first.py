"""Rules ask_missing_file and ask_vague_request: a request to change a file the project does not
have, and that does not ask for it to be made, or one that names nothing to change and nothing to
check ("make it faster"), is answered with a question before anything is written.

Issue 58: asked to "Fix the crash in database.py" in a project with no such file, the 0.5B
created a database.py holding the README's Markdown; the run said every check passed. Asked to
"make it faster", it deleted the user's comment and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePosixPath

from agents.events import EventBus, Notice
from agents.request import RequestFacts, is_user_test
from agents.rules.prompt.ask_rename_in_tests import ask_rename_in_tests
from agents.rules.rule import RuleSwitches, Stage, rule


def missing_files(facts: RequestFacts, files: list[str]) -> list[str]:
    """The files the request names that the project has under no folder."""
    names = {PurePosixPath(rel).name for rel in files}
    return [f for f in facts.files if f not in files and PurePosixPath(f).name not in names]


@rule(
    "ask_vague_request",
    Stage.PROMPT,
    reason=(
        "a request that names nothing to change and nothing to check ('make it faster') gets a question "
        "before anything is written"
    ),
    evidence="tests/test_ask_vague_request.py",
)
def ask_vague_request(facts: RequestFacts) -> str:
    """The question for a request that names nothing to change and nothing to check ('' if none)."""
    if not facts.vague:
        return ""
    return (
        "Which file or function should change, and how would we tell it worked (a test, a command,"
        " a timing)? Nothing was written."
    )


@rule(
    "ask_missing_file",
    Stage.PROMPT,
    reason=(
        "a request to change a file the project does not have, and not to make it, gets a question before"
        " anything is written"
    ),
    evidence="tests/test_ask_missing_file.py",
)
def ask_missing_file(facts: RequestFacts, files: list[str]) -> str:
    """The question for a request to change a file the project does not have ('' if none)."""
    if facts.makes or not facts.changes:
        return ""
    missing = missing_files(facts, files)
    if not missing:
        return ""
    python = [f"`{rel}`" for rel in files if rel.endswith(".py")][:6]  # `__init__.py` is no Markdown
    have = f" Its Python files: {', '.join(python)}." if python else " It has no Python file yet."
    them = "it" if len(missing) == 1 else "them"
    return (
        f"This project has no {', '.join(missing)}.{have} Which file did you mean, or should I create"
        f" {them}? Nothing was written."
    )


def question_before_writing(
    facts: RequestFacts,
    files: list[str],
    read: Callable[[list[str]], dict[str, str]],
    rules: RuleSwitches,
    bus: EventBus,
) -> str:
    """The question to ask instead of running ('' when the run may go ahead), said on the bus.
    `read`: the text of these files (the user's tests, read only for a rename)."""
    question = ask_vague_request(facts) if rules.on(ask_vague_request) else ""
    if not question and rules.on(ask_missing_file):
        question = ask_missing_file(facts, files)
    if not question and facts.renamed and rules.on(ask_rename_in_tests):
        question = ask_rename_in_tests(facts, read([f for f in files if is_user_test(f)]))
    if question:
        bus.emit(Notice(level="question", message=question))
    return question
