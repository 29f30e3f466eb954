"""A name a written file now uses without binding it, which exactly one other module of the project
defines at its top level, gets its import: `from report import report`.

Told "main.py uses report without defining or importing it (from report import report)" three
rounds running, the 0.5B never added the line (in the IDE, 2026-11-27); an editor's quick fix does
it in one keystroke. Only names the file did not already leave unbound before the run, only where
one module (not a test file) defines them, never from a module that imports this one (a cycle).
Where two modules define the name, nothing is added: the static check tells the coder, as before.
"""

from __future__ import annotations

import ast
from pathlib import PurePosixPath

from agents.request import is_user_test
from agents.rules.static.request_checks import unbound_names
from agents.rules.write.edit_guard import definitions


def module_of(rel: str) -> str:
    return rel.removesuffix(".py").replace("/", ".")


def add_missing_imports(
    source: str, original: str | None, rel: str, sources: dict[str, str]
) -> tuple[str, list[str]]:
    """`source` with an import line for each new unbound name one project module defines, and
    the lines added."""
    before = set(unbound_names(original or ""))
    names = [name for name in unbound_names(source) if name not in before]
    lines = []
    for name in names:
        owners = [
            other
            for other, text in sources.items()
            if other != rel and not is_user_test(other) and name in set(definitions(text) or [])
        ]
        if len(owners) == 1 and not _imports(sources[owners[0]], module_of(rel)):
            lines.append(f"from {module_of(owners[0])} import {name}")
    if not lines:
        return source, []
    return _inserted(source, lines), lines


def _imports(source: str, module: str) -> bool:
    """The source imports `module` (or a name from it)."""
    short = PurePosixPath(module.replace(".", "/")).name
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return True  # unknown: do not risk a cycle
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in (module, short):
            return True
        if isinstance(node, ast.Import) and any(a.name in (module, short) for a in node.names):
            return True
    return False


def _inserted(source: str, lines: list[str]) -> str:
    """The import lines after the file's leading imports (or its docstring, or at the top)."""
    tree = ast.parse(source)  # unbound_names found names: it parses
    after = 0
    for index, node in enumerate(tree.body):
        docstring = index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        if isinstance(node, ast.Import | ast.ImportFrom) or docstring:
            after = node.end_lineno or after
        else:
            break
    text = source.splitlines(keepends=True)
    head, tail = text[:after], text[after:]
    if head and not head[-1].endswith("\n"):
        head[-1] += "\n"
    block = "".join(f"{line}\n" for line in lines)
    if tail and tail[0].strip() and not any(isinstance(n, ast.Import | ast.ImportFrom) for n in tree.body):
        block += "\n"  # a first import block stands apart from the code below it
    return "".join(head) + block + "".join(tail)
