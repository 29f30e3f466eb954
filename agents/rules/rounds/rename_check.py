"""Rule `rename_verified`: a rename the request asks for is a change the project's tests can check.

Asked to "rename by_author to books_by and update every use", a run that passes the project's
tests as they passed before changed nothing those tests could catch, so `checked_approval` held it
for review; yet for a rename, the tests passing is exactly the check, once the rename itself is
seen to be complete: the old name is used nowhere in the project's code (no definition, import,
call or attribute) and the new one is defined. That is read off the files, not the answer.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

from agents.rules.rule import Stage, rule
from agents.source.used_names import used_names


def _names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(every name the code binds or reads, the names it defines)."""
    used = used_names(tree.body)  # names read and attributes
    defined: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            defined.add(node.id)
        elif isinstance(node, ast.alias):
            used |= {node.name.rsplit(".", 1)[-1], *([node.asname] if node.asname else [])}
    return used | defined, defined


def uses_any(source: str, names: Iterable[str]) -> bool:
    """Whether the code binds or reads one of `names` (a file that does not parse: no)."""
    try:
        used, _ = _names(ast.parse(source))
    except (SyntaxError, ValueError):
        return False
    return not used.isdisjoint(names)


@rule(
    "rename_verified",
    Stage.ROUNDS,
    reason=(
        "a rename the request asks for, found complete in the files (old name used nowhere, new one "
        "defined), is a change the project's tests check"
    ),
    evidence="bench/results/2026-11-28-rename-verified-sealed-dev-1.5b",
)
def rename_done(renamed: Mapping[str, str], sources: Mapping[str, str]) -> str:
    """A check line when every asked rename is complete in `sources` (path -> code), else ''."""
    if not renamed or not sources:
        return ""
    used: set[str] = set()
    defined: set[str] = set()
    for code in sources.values():
        try:
            tree = ast.parse(code)
        except SyntaxError:
            return ""  # a file that does not parse cannot be read for its names
        names, defs = _names(tree)
        used |= names
        defined |= defs
    for old, new in renamed.items():
        if old == new or old in used or new not in defined:
            return ""
    pairs = ", ".join(f"{old} to {new}" for old, new in renamed.items())
    return f"the rename ({pairs}) is complete: the old name is used nowhere in the project's code"
