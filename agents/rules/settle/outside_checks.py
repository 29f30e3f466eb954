"""Checks on code the request does not touch, failing as they did before the run: dropped.

Asked in the IDE to give bullet_list a `marker` parameter, the 0.5B's reviewer wrote three asserts
on join_names alone, with values join_names never gave (`join_names(['Alice', 'Bob']) == 'Alice -
Bob'`). They failed on the code before the run just as after it, and sent the coder round after
round after a function the user never asked about. A failed check that calls none of the
functions the request names or the run changed or added, and fails exactly as it did before the
run (agents/run/settling runs it on the files as they were), says nothing about the change. It
is dropped only while a check on the change remains.
"""

from __future__ import annotations

import ast

from agents.request import RequestFacts
from agents.rules.checks.written_checks import failed_check
from agents.rules.rule import Stage, rule

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _tree(source: str | None) -> ast.Module | None:
    try:
        return ast.parse(source or "")
    except (SyntaxError, ValueError):
        return None


def _names_within(node: ast.AST) -> set[str]:
    return {sub.name for sub in ast.walk(node) if isinstance(sub, _DEFS)}


def touched_names(
    facts: RequestFacts, written: dict[str, str], originals: dict[str, str | None]
) -> set[str] | None:
    """The names the request writes, and every definition inside a top-level one the run changed
    or added; None when a written file does not parse (nothing can be said)."""
    touched = set(facts.words)
    for path, text in written.items():
        new, old = _tree(text), _tree(originals.get(path))
        if new is None or old is None:
            return None
        before = {n.name: ast.dump(n) for n in old.body if isinstance(n, _DEFS)}
        for node in new.body:
            if isinstance(node, _DEFS) and before.get(node.name) != ast.dump(node):
                touched |= _names_within(node)
    return touched


def _called(check: str | ast.AST) -> set[str]:
    tree = _tree(check) if isinstance(check, str) else check
    if tree is None:
        return set()
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            found.add(func.id if isinstance(func, ast.Name) else getattr(func, "attr", ""))
    return found


@rule(
    "outside_checks",
    Stage.SETTLE,
    reason="a check on untouched code failing as before the run is dropped",
    evidence="bench/results/2026-11-26-crew-0.5b-outside-checks-narrowed",
)
def outside_the_request(failures: list[str], touched: set[str], defined: set[str] | None = None) -> list[str]:
    """The failure lines whose assert calls something, none of it `touched`; with `defined`, only
    those that call project code among it."""
    found = []
    for failure in failures:
        check = failed_check(failure)
        called = _called(check) if defined is None else _called(check) & defined
        if check.startswith("assert") and called and not called & touched:
            found.append(failure)
    return found


def tests_the_change(checks: str, touched: set[str]) -> bool:
    """Whether an assert among the checks calls something `touched`: drops that would leave none
    would approve on the program's run alone (the 0.5B's reviewer, asked about bullet_list,
    asserted join_names only, and the kept bullet_list was wrong)."""
    tree = _tree(checks)
    return tree is not None and any(
        isinstance(node, ast.Assert) and _called(node) & touched for node in tree.body
    )


def project_names(sources: dict[str, str]) -> set[str]:
    """Every function, method and class the project's Python files define."""
    names: set[str] = set()
    for text in sources.values():
        tree = _tree(text)
        if tree is not None:
            names |= _names_within(tree)
    return names
