"""Rule defined_twice: a function or method the run defines a second time in one scope is sent back.

Asked for a follow-up change to `Inventory.count`, the 0.5B appended a second `def count(self)`
below the first; Python keeps the later one silently, the tests passed on whichever survived, and
nothing told the coder (pyflakes calls it F811). Only a repeat the run made counts, and only plain
redefinitions: `@overload` stubs, property setters and `register`-style decorators repeat a name on
purpose.
"""

from __future__ import annotations

import ast

from agents.rules.rule import Stage, rule
from agents.rules.static.scan import StaticScan

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _on_purpose(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A decorator that makes a repeated name intended: `@overload`, `@x.setter`, `@f.register`."""
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) or getattr(target, "id", "") == "overload":
            return True
    return False


def _repeats(body: list[ast.stmt], scope: str) -> dict[str, list[int]]:
    """{'scope.name': [line, line, ...]} for each function name defined twice or more in `body`."""
    lines: dict[str, list[int]] = {}
    for node in body:
        if isinstance(node, _FUNCTIONS) and not _on_purpose(node):
            lines.setdefault(f"{scope}{node.name}", []).append(node.lineno)
    return {name: found for name, found in lines.items() if len(found) > 1}


def defined_twice_in(source: str) -> dict[str, list[int]]:
    """{'name' or 'Class.name': [lines]} for each function the file's top level, or one of its
    top-level classes, defines more than once ({} when the file does not parse)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    found = _repeats(tree.body, "")
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            found |= _repeats(node.body, f"{node.name}.")
    return found


@rule(
    "defined_twice",
    Stage.STATIC,
    reason="a function or method the run defines a second time in one scope is sent back",
    evidence="tests/test_defined_twice.py",
    per_file=True,
)
def defined_twice(scan: StaticScan, rel: str) -> list[str]:
    if not rel.endswith(".py"):
        return []
    before = defined_twice_in(scan.originals.get(rel) or "")
    problems = []
    for name, lines in defined_twice_in(scan.sources[rel]).items():
        if len(lines) > len(before.get(name, [])):
            where = ", ".join(str(line) for line in lines)
            problems.append(
                f"{rel} defines {name} {len(lines)} times (lines {where}): Python keeps only the"
                f" last. Change the one definition in place and leave one."
            )
    return problems
