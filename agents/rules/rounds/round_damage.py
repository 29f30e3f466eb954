"""What a round left worse than the project was before the run, read from the source: a file that no
longer parses, a name read that nothing binds, a module importing itself, an import of a name its
module no longer defines, a copy of the tests' code in a module that is no test. Keep-best ranks
such a round below the project as it was (rule worse_never_kept); the coder is told the parse and
self-import problems (rules files_parse, self_imports).

Issue 58: the 0.5B's last round made report.py import itself and dropped `import csv, sys` from
main.py; the run's own static check said so, yet the round stayed on disk, because keep-best ranked
rounds by the project's tests alone, which never imported main.py.
"""

from __future__ import annotations

import ast

from agents.request import is_user_test
from agents.rules.static.pasted_tests import pasted_test_code
from agents.rules.static.project_imports import broken_imports, import_target, module_name
from agents.rules.static.request_checks import unbound_names


def sources_before(sources: dict[str, str], originals: dict[str, str | None]) -> dict[str, str]:
    """The project's Python files as they were before the run: `sources` with the run's writes
    undone (a file it created left out)."""
    before = dict(sources)
    for rel, text in originals.items():
        if rel.endswith(".py"):
            if text is None:
                before.pop(rel, None)
            else:
                before[rel] = text
    return before


def parse_error(text: str) -> str:
    """Why `text` is not Python ('' when it parses)."""
    try:
        ast.parse(text)
    except SyntaxError as exc:
        return f"line {exc.lineno}: {exc.msg}"
    except ValueError as exc:  # a null byte
        return str(exc)
    return ""


def imports_itself(rel: str, text: str) -> bool:
    """The module imports itself at its top level (`from report import summary` in report.py): a
    circular import that fails, or runs the module twice."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    own = module_name(rel)
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and import_target(rel, node) == own:
            return True
        if isinstance(node, ast.Import) and any(alias.name == own for alias in node.names):
            return True
    return False


def parse_problems(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """Each Python file that parsed before the run (or is new) and does not now."""
    problems = []
    for rel, text in after.items():
        why = parse_error(text)
        if why and (rel not in before or not parse_error(before[rel])):
            problems.append(f"{rel} is not valid Python ({why}): write it as Python code, or leave it out.")
    return problems


def self_import_problems(before: dict[str, str], after: dict[str, str]) -> list[str]:
    return [
        f"{rel} imports itself: import what it needs from the module that defines it, or drop the import."
        for rel, text in after.items()
        if imports_itself(rel, text) and not (rel in before and imports_itself(rel, before[rel]))
    ]


def damage(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """What the files `after` have broken that `before` had whole, each as one line."""
    changed = {rel: text for rel, text in after.items() if before.get(rel) != text}
    found = parse_problems(before, changed) + self_import_problems(before, changed)
    for rel, text in changed.items():
        new = [name for name in unbound_names(text) if name not in unbound_names(before.get(rel, ""))]
        if new:
            found.append(f"{rel} uses {', '.join(new)} without defining or importing them.")
    for rel, module, name in sorted(broken_imports(after) - broken_imports(before)):
        found.append(f"{rel} imports {name} from {module}, which does not define it.")
    return found + pasted_test_problems(before, changed, after)


def pasted_test_problems(before: dict[str, str], changed: dict[str, str], after: dict[str, str]) -> list[str]:
    """Each module that is no test and now holds a copy of a test file's function or class (the
    0.5B's kept round had pasted tests/test_ledger.py's test_total() and make() into ledger.py)."""
    tests = {rel: text for rel, text in after.items() if is_user_test(rel)}
    found = []
    for rel, text in changed.items():
        if is_user_test(rel):
            continue
        copied = [node.name for node, origin in pasted_test_code(before.get(rel), text, tests) if origin]
        if copied:
            found.append(f"{rel} holds {', '.join(copied)}, copied from the tests.")
    return found
