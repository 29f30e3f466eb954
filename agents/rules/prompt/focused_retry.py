"""After the coder wrote a file back as it was: show it only the definitions to change.

Asked to fix count_words in a three-function words.py, the 1.5B copied the whole file back
unchanged in all three rounds, sampled retries and the "you left it as it was" feedback
included (acceptance request 17). Shown the one function alone and asked for its new version,
the coder has nothing else to copy; the write tool then puts that function back in place and keeps
the rest of the file byte for byte (agents/source/definition_merge.py).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from agents.request import RequestFacts
from agents.rules.rule import Stage, rule

_DEF = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_CALL = re.compile(r"\b([A-Za-z_]\w*)\(")


@dataclass(frozen=True)
class Focus:
    path: str
    names: list[str]
    code: str  # the definitions as the file has them, in its order


@rule(
    "focused_retry",
    Stage.PROMPT,
    reason="after an unchanged answer, only the functions at issue are shown",
    evidence="bench/results/2026-11-26-crew-1.5b-class-checks",
)
def focus_on(facts: RequestFacts, files: dict[str, str], failures: list[str]) -> list[Focus]:
    """Per Python file, the top-level definitions the request names (else those the failed checks
    call), when they are only part of the file; none where the whole file is what to show."""
    named = facts.words
    called = {name for failure in failures for name in _CALL.findall(failure)}
    found = []
    for path, text in files.items():
        if not path.endswith(".py"):
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        defs = [node for node in tree.body if isinstance(node, _DEF)]
        chosen = [n for n in defs if n.name in named] or [n for n in defs if n.name in called]
        if not chosen or len(chosen) == len(defs):
            continue
        lines = text.splitlines()
        parts = []
        for node in chosen:
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            parts.append("\n".join(lines[start - 1 : node.end_lineno]))
        found.append(Focus(path, [n.name for n in chosen], "\n\n\n".join(parts) + "\n"))
    return found


def focus_text(focus: list[Focus]) -> str:
    return "\n".join(
        f"From {f.path}, only {', '.join(f.names)} (the rest of {f.path} stays as it is):\n"
        f"```python\n{f.code}```"
        for f in focus
    )


def focus_rules(focus: list[Focus]) -> str:
    """The format rule for a focused try, in place of "write each file whole"."""
    names = ", ".join(name for f in focus for name in f.names)
    return (
        f"Write the new version of {names} only: its file's path alone on one line, then the code "
        "in one ```python code block. Nothing after the last block."
    )
