"""Rule pasted_tests: a module of the product does not gain the tests' code.

Asked to "print total with two decimals" on ledger.py, report.py, main.py and tests/test_ledger.py,
the 0.5B's kept round had pasted tests/test_ledger.py's `test_total()` and its helper `make()` into
ledger.py, and no check said anything. A function or class the run adds to a file that is no test
is told when it is a test (named `test_...` and asserting, or a `Test...` class holding one), or a
copy of a test file's function or class: same name, same parameters, same code, docstrings aside.
What the file defined before the run, what the request writes as a call (`test_prime(n)`), and a
file the request names when it asks for tests to be written are left alone. The rule is not called
`test_...`: pytest and is_test_file would take its module for a test.
"""

from __future__ import annotations

import ast
from pathlib import Path

from agents.request import is_user_test
from agents.rules.rule import Stage, rule
from agents.rules.static.scan import StaticScan, sources_before

Defined = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _defined(source: str | None) -> dict[str, Defined]:
    """The top-level functions and classes, by name; nothing when the source does not parse."""
    try:
        tree = ast.parse(source or "")
    except (SyntaxError, ValueError):
        return {}
    return {node.name: node for node in tree.body if isinstance(node, Defined)}


def _without_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    value = body[0].value if body and isinstance(body[0], ast.Expr) else None
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return body[1:]
    return body


def _code(node: Defined) -> str:
    """What makes two definitions copies: kind, parameters or bases, and body, docstrings aside."""
    if isinstance(node, ast.ClassDef):
        head = ",".join(ast.dump(base) for base in node.bases)
    else:
        head = ast.dump(node.args)
    body = []
    for stmt in _without_docstring(node.body):
        body.append(_code(stmt) if isinstance(stmt, Defined) else ast.dump(stmt))
    return f"{type(node).__name__}|{head}|{'|'.join(body)}"


def _is_test(node: Defined) -> bool:
    """A pytest test: a `test_...` function that asserts, or a `Test...` class holding one."""
    if isinstance(node, ast.ClassDef):
        return node.name.startswith("Test") and any(
            _is_test(item) for item in node.body if not isinstance(item, ast.ClassDef)
        )
    asserts = any(isinstance(n, ast.Assert) for n in ast.walk(node))
    raises = any(isinstance(n, ast.Attribute) and n.attr == "raises" for n in ast.walk(node))
    return node.name.startswith("test_") and (asserts or raises)


def pasted_test_code(
    before: str | None, after: str, tests: dict[str, str]
) -> list[tuple[Defined, str | None]]:
    """(definition, test file it was copied from, or None) for each function or class `after`
    gained that is a test or a copy of one of `tests`' definitions."""
    copies = {
        (name, _code(node)): rel for rel, text in tests.items() for name, node in _defined(text).items()
    }
    had, found = _defined(before), []
    for name, node in _defined(after).items():
        if name in had:
            continue
        origin = copies.get((name, _code(node)))
        if origin is not None or _is_test(node):
            found.append((node, origin))
    return found


def _of_tests(rel: str) -> bool:
    """A test file, a file under tests/, or a conftest."""
    return is_user_test(rel) or Path(rel).name == "conftest.py"


@rule(
    "pasted_tests",
    Stage.STATIC,
    reason="a product module does not gain the tests' code: a test, or a copy of a test file's "
    "function, pasted into it",
    evidence="tests/test_pasted_tests.py",
    per_file=True,
)
def pasted_tests(scan: StaticScan, rel: str) -> list[str]:
    if _of_tests(rel) or (scan.facts.tests and rel in scan.facts.files):
        return []  # a file the request names when it asks for tests may hold them
    tests = {path: text for path, text in scan.sources.items() if _of_tests(path)}
    before = sources_before(scan).get(rel)
    found = [
        (node, origin)
        for node, origin in pasted_test_code(before, scan.sources[rel], tests)
        if node.name not in scan.facts.calls
    ]
    if not found:
        return []
    names = ", ".join(n.name if isinstance(n, ast.ClassDef) else f"{n.name}()" for n, _ in found)
    origins = sorted({origin for _, origin in found if origin is not None})
    copied = f" from {', '.join(origins)}" if origins else ""
    them = "them" if len(found) > 1 else "it"
    return [f"{rel} now holds {names}{copied}: tests stay in the test files; take {them} out of {rel}."]
