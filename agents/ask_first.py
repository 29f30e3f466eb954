"""Rule ask_missing_file: a request to change a file the project does not have, and that does not
ask for it to be made, is answered with a question before anything is written.

Issue 58: asked to "Fix the crash in database.py" in a project with no such file, the 0.5B
created a database.py holding the README's Markdown; the run said every check passed.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from agents.events import EventBus, Notice
from agents.request_facts import RequestFacts
from agents.rule_registry import RuleSwitches

# Words that ask for a file to be made: such a file is not expected to be there yet.
_MAKES = re.compile(
    r"\b(?:create|creates|new|write|make|add|generate|build|implement|start|save|put|scaffold)\b", re.I
)
# Words that ask for something already there to change.
_CHANGES = re.compile(
    r"\b(?:fix|fixes|change|update|edit|correct|modify|refactor|rename|debug|optimi[sz]e|speed\s+up|"
    r"faster|clean\s+up|improve|crash\w*|bug\w*|error|broken|fails?|failing)\b",
    re.I,
)


def missing_files(facts: RequestFacts, files: list[str]) -> list[str]:
    """The files the request names that the project has under no folder."""
    names = {PurePosixPath(rel).name for rel in files}
    return [f for f in facts.files if f not in files and PurePosixPath(f).name not in names]


def missing_file_question(facts: RequestFacts, files: list[str], rules: RuleSwitches, bus: EventBus) -> str:
    """The question to ask instead of running ('' when the run may go ahead), said on the bus."""
    if not rules.on("ask_missing_file") or _MAKES.search(facts.text) or not _CHANGES.search(facts.text):
        return ""
    missing = missing_files(facts, files)
    if not missing:
        return ""
    python = [rel for rel in files if rel.endswith(".py")][:6]
    have = f" Its Python files: {', '.join(python)}." if python else " It has no Python file yet."
    them = "it" if len(missing) == 1 else "them"
    question = (
        f"This project has no {', '.join(missing)}.{have} Which file did you mean, or should I create"
        f" {them}? Nothing was written."
    )
    bus.emit(Notice(level="question", message=question))
    return question
