"""On the real coder: a request that changes one function of a five-function file, then a
follow-up that names no file. Whatever the model writes (it differs from one CPU to another), the
four functions nobody asked about stay byte for byte and the file still parses."""

import ast
from pathlib import Path

from agents.events import EventBus
from agents.run.runner import CrewRunner, CrewSettings
from models.engine import Engine

STRINGS = """def shout(text):
    return text.upper() + "!"


def whisper(text):
    return text.lower() + "..."


def initials(name):
    return "".join(part[0].upper() for part in name.split())


def count_vowels(text):
    return sum(1 for ch in text.lower() if ch in "aeiou")


def reverse_words(text):
    return " ".join(reversed(text.split()))
"""
UNTOUCHED = ["whisper", "initials", "count_vowels", "reverse_words"]


def _functions(source: str) -> dict[str, str]:
    tree = ast.parse(source)
    return {
        node.name: ast.get_source_segment(source, node) or ""
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
    }


def test_an_edit_and_a_follow_up_keep_the_other_functions(coder_engine: Engine, tmp_path: Path) -> None:
    (tmp_path / "strings.py").write_text(STRINGS)
    before = _functions(STRINGS)
    runner = CrewRunner(coder_engine, tmp_path, EventBus(), CrewSettings(rounds=1))
    first = runner.run("In strings.py, make shout(text) end with three exclamation marks instead of one.")
    second = CrewRunner(coder_engine, tmp_path, EventBus(), CrewSettings(rounds=1)).run(
        "Now make it strip the spaces around the text first."
    )
    for summary in (first, second):
        assert summary.completed, summary.message
    after = _functions((tmp_path / "strings.py").read_text())  # parses, or this raises
    assert {name: after.get(name) for name in UNTOUCHED} == {name: before[name] for name in UNTOUCHED}
    assert "shout" in after
