"""The names code uses: every name it reads and every attribute it names, from its syntax tree.
One home for the walk that put-back, the rename check and the rename question each made."""

from __future__ import annotations

import ast


def used_names(nodes: list[ast.stmt]) -> set[str]:
    """Every `name` and `.attribute` in these statements."""
    found = set()
    for node in nodes:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name):
                found.add(sub.id)
            elif isinstance(sub, ast.Attribute):
                found.add(sub.attr)
    return found


def names_used_in(source: str, *, imports: bool = False) -> set[str]:
    """The names `source` uses, and with `imports` the names it imports (`from m import a.b` gives
    b); nothing when it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set()
    found = used_names(tree.body)
    if imports:
        found |= {a.name.rsplit(".", 1)[-1] for a in ast.walk(tree) if isinstance(a, ast.alias)}
    return found
