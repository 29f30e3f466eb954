"""A method written at the top level of a file goes into its class.

Asked to add a method count() to TodoList, the 0.5B wrote `def count(self)` after the class, at
the top level, in all three rounds, though told where it belongs; the reviewer's
`todo_list.count()` then failed on code that was otherwise right. Where the file has one class, a
new top-level function whose first parameter is `self`, named as no method of that class, is
moved to the end of the class, indented.
"""

from __future__ import annotations

import ast

from agents.rules.rule import Stage, rule
from agents.rules.write.draft import WriteDraft
from agents.source.definition_merge import top_level_functions


def into_class(source: str, before: str | None) -> tuple[str, list[str]]:
    """The source with such functions moved into the class, and their names; as it was when none."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return source, []
    owner = only_class(tree)
    if owner is None:
        return source, []
    methods = {n.name for n in owner.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    existing = _top_level_functions(before or "")
    strays = [
        node
        for node in top_level_functions(tree).values()
        if takes_self(node)
        and node.name not in methods
        and node.name not in existing
        and node.lineno > (owner.end_lineno or 0)  # written after the class, as it was seen
    ]
    if not strays:
        return source, []
    lines = source.splitlines(keepends=True)
    moved: list[str] = []
    for node in reversed(strays):  # bottom up: earlier line numbers stay right
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
        end = node.end_lineno or node.lineno
        text = "".join(lines[start:end])
        moved.insert(0, "".join(f"    {line}" if line.strip() else line for line in text.splitlines(True)))
        del lines[start:end]
    at = owner.end_lineno or 0
    body = "".join("\n" + text.rstrip("\n") + "\n" for text in moved)
    lines[at:at] = [body]
    text = "".join(lines).rstrip("\n") + "\n"
    return text, [node.name for node in strays]


def only_class(tree: ast.Module) -> ast.ClassDef | None:
    """The module's class when it defines exactly one at the top level: where a stray method goes."""
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    return classes[0] if len(classes) == 1 else None


def takes_self(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A function whose first parameter is `self`: a method, wherever it was written."""
    return bool(function.args.args) and function.args.args[0].arg == "self"


def _top_level_functions(source: str) -> set[str]:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set()
    return set(top_level_functions(tree))


@rule(
    "stray_methods",
    Stage.WRITE,
    reason="methods written at the top level go back into their class",
    evidence="bench/results/2026-11-26-crew-0.5b-stray-methods",
)
def stray_methods(draft: WriteDraft) -> None:
    """Methods written at the top level of a one-class file go back into the class."""
    if not draft.python:
        return
    draft.content, moved = into_class(draft.content, draft.original)
    if moved:
        draft.notes.append(f"{', '.join(moved)} moved into its class from the top level")
