"""Rule code_under_test: for a request judged by failing tests, the project code those tests run
is where the fix goes, said to the coder, and the test files are not what it may change.

Asked "The test test_total fails, fix it", the 1.5B was shown the whole small project and wrote
tests/test_ledger.py back unchanged in every round and candidate: the test was the file the
request named, the bug (`total = x` for `total += x`) was in ledger.py. Agentless localises first;
here the localisation is a static spectrum: the project functions the failing tests call (through
the test file's own helpers) and the passing tests of the same files do not call come first.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass

from agents.request import is_user_test
from agents.rules.rule import Stage, rule


@dataclass(frozen=True)
class Suspect:
    """A project function or method a failing test runs."""

    path: str
    name: str  # "total" or "Ledger.total"
    only_failing: bool  # no passing test of the same files calls it

    def label(self) -> str:
        return f"{self.path} ({self.name})"


def _definitions(path: str, source: str) -> dict[str, str]:
    """Called name -> qualified name, for the functions, classes and methods a file defines."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.setdefault(node.name, node.name)
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and not item.name.startswith(
                    "__"
                ):
                    found.setdefault(item.name, f"{node.name}.{item.name}")
    return found


def _test_functions(source: str) -> dict[str, ast.AST]:
    """Each top-level function and each class's method of a test file, by "name" and "Class::name"."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    found: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found[node.name] = node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    found[f"{node.name}::{item.name}"] = item
    return found


def _called(node: ast.AST) -> set[str]:
    names: set[str] = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Call):
            func = inner.func
            if isinstance(func, ast.Name):
                names.add(func.id)
            elif isinstance(func, ast.Attribute):
                names.add(func.attr)
    return names


def _reached(test: str, functions: dict[str, ast.AST]) -> set[str]:
    """The names a test calls, through the helpers its own file defines (make() -> Ledger, add)."""
    seen: set[str] = set()
    todo = [test]
    names: set[str] = set()
    while todo:
        current = todo.pop()
        if current in seen or current not in functions:
            continue
        seen.add(current)
        called = _called(functions[current])
        names |= called
        todo += [name for name in called if name in functions]
    return names


def _test_name(test_id: str) -> tuple[str, str]:
    path, _, name = test_id.partition("::")
    return path, name.split("[", 1)[0]


@rule(
    "code_under_test",
    Stage.PROMPT,
    reason=(
        "a request judged by failing tests is told the tests are right and which of the project's "
        "functions they run (and the passing ones do not) is where the fix goes"
    ),
    evidence="tests/test_code_under_test.py",
)
def suspects(failing: list[str], passing: list[str], sources: Mapping[str, str]) -> list[Suspect]:
    """The project code the failing tests run, most suspicious first. `failing`, `passing`: pytest
    ids ("tests/test_a.py::test_x"); `sources`: every project .py file's text, tests included."""
    definitions: dict[str, list[tuple[str, str]]] = {}
    for path, source in sources.items():
        if is_user_test(path):
            continue
        for called, qualified in _definitions(path, source).items():
            definitions.setdefault(called, []).append((path, qualified))
    tests = {
        path: _test_functions(sources[path])
        for path in {_test_name(t)[0] for t in failing}
        if path in sources
    }
    reached_failing: set[str] = set()
    for test_id in failing:
        path, name = _test_name(test_id)
        reached_failing |= _reached(name, tests.get(path, {}))
    reached_passing: set[str] = set()
    for test_id in passing:
        path, name = _test_name(test_id)
        if path in tests:
            reached_passing |= _reached(name, tests[path])
    found: list[Suspect] = []
    for called in sorted(reached_failing):
        for path, qualified in definitions.get(called, []):
            found.append(Suspect(path, qualified, only_failing=called not in reached_passing))
    # Functions only the failing tests call first; classes (constructors) last: rarely the bug.
    return sorted(
        found, key=lambda s: (not s.only_failing, "." not in s.name and s.name[:1].isupper(), s.path)
    )


def localisation_note(found: list[Suspect], tests: list[str]) -> str:
    """What the coder is told: the tests are right, and where the code they run lives."""
    if not found:
        return ""
    first = [s for s in found if s.only_failing] or found
    where = ", ".join(s.label() for s in first[:4])
    files = ", ".join(sorted({s.path for s in found}))
    named = ", ".join(tests[:3])
    if len(tests) > 1:
        return f"The failing tests ({named}) are right: do not change them. The bug is in the project code they run, most likely {where}. Write the fixed {files} whole."  # noqa: E501
    return f"The failing test ({named}) is right: do not change it. The bug is in the project code it runs, most likely {where}. Write the fixed {files} whole."  # noqa: E501


def test_sources(failing: list[str], sources: Mapping[str, str]) -> str:
    """The failing tests' own code and the test-file helpers they call, as the coder is shown it
    when only the code under test is its to write."""
    shown: list[str] = []
    for path in sorted({_test_name(t)[0] for t in failing}):
        source = sources.get(path)
        functions = _test_functions(source) if source else {}
        names: list[str] = []
        for test_id in failing:
            test_path, name = _test_name(test_id)
            if test_path == path:
                names += [name, *sorted(n for n in _reached(name, functions) if n in functions and n != name)]
        segments = [
            ast.get_source_segment(source or "", functions[n]) for n in dict.fromkeys(names) if n in functions
        ]
        if segments:
            shown.append(
                f"{path} (the test; do not change it):\n```python\n"
                + "\n\n".join(filter(None, segments))
                + "\n```"
            )
    return "\n".join(shown)
