"""Rule work_files: the files a run may write when its request names some.

A request names files for two reasons: the files to change, and the files that show the problem
("test_cart.py is failing, can you fix it?", "don't edit config.json"). Only the first are targets.
Named only the second, the coder could write nothing but a test it must not edit or a file it was
told to leave; named report.py and main.py, it could not write orders.py, where the method to
rename lives. So: the named files and the project modules the targets import, and for a rename the
files that use the old name ("…and update every use"); no limit at all when the request names no
target (the coder may then write the project's code, as when it names none). A request that names
no file but a `Class.method` one project file defines is about that file.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from agents.request import RequestFacts, is_user_test
from agents.rules.rounds.rename_check import uses_any
from agents.rules.rule import RuleSwitches, Stage, rule
from agents.rules.static.project_imports import import_target, module_name


def is_target(rel: str, facts: RequestFacts, existing: set[str]) -> bool:
    """A named file the run is there to write: not an existing user test it may not edit, not an
    existing data file the request does not ask to change."""
    if is_user_test(rel) and rel in existing:
        return facts.may_change_tests
    if not rel.endswith(".py") and rel in existing:
        return facts.asks_to_change(rel)
    return True


MOST_FILES_READ = 300  # a request naming `Store.remove` and no file: where is Store defined


def member_owners(
    members: frozenset[tuple[str, str]], existing: list[str], texts: Callable[[list[str]], dict[str, str]]
) -> list[str]:
    """The project files defining the `Class.method`s a request names, where one file defines each:
    "Add a docstring to Store.remove" names no file, and the coder was shown the previous run's
    three files instead of inventory/store.py, copied them back and wrote no docstring (IDE use)."""
    if not members:
        return []
    code = [rel for rel in existing if rel.endswith(".py") and not is_user_test(rel)][:MOST_FILES_READ]
    found: dict[tuple[str, str], list[str]] = {}
    for rel, source in texts(code).items():
        for member in members & _members(source):
            found.setdefault(member, []).append(rel)
    return list(dict.fromkeys(owners[0] for owners in found.values() if len(owners) == 1))


def _members(source: str) -> set[tuple[str, str]]:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set()
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef)
    return {
        (node.name, item.name)
        for node in tree.body
        if isinstance(node, ast.ClassDef)
        for item in node.body
        if isinstance(item, kinds)
    }


def imported_files(rel: str, source: str, modules: dict[str, str]) -> list[str]:
    """The project files `source` imports (modules: dotted name -> file)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    found: list[str] = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and (target := import_target(rel, node)):
            names = [target, *(f"{target}.{alias.name}" for alias in node.names)]
        found += [modules[name] for name in names if name in modules and modules[name] not in found]
    return found


@rule(
    "work_files",
    Stage.PROMPT,
    reason=(
        "a request naming files may write those it asks to change and the modules they import; naming "
        "only a test or a file to leave, the project's code"
    ),
    evidence="tests/test_work_files.py",
)
def work_files(
    facts: RequestFacts,
    existing: list[str],
    texts: Callable[[list[str]], dict[str, str]],
    rules: RuleSwitches | None = None,
) -> list[str]:
    """The files the coder is shown and may write ([]: any): the named files when one of them is a
    target, then what the targets import (with the rule off: the named files alone). `texts`: the
    readable text of each file it is given."""
    if rules is not None and not rules.on(work_files):
        return list(facts.files)
    have = set(existing)
    targets = [rel for rel in facts.files if is_target(rel, facts, have)]
    if not facts.files:
        targets = member_owners(facts.members, existing, texts)
    if not targets:
        return []
    modules = {module_name(rel): rel for rel in existing if rel.endswith(".py")}
    # The other named files stay: they are shown (scores.csv's rows, to the code that reads it),
    # and the write rules refuse a change to them the request does not ask for.
    allowed = list(dict.fromkeys([*facts.files, *targets]))
    for rel, source in texts([t for t in targets if t.endswith(".py") and t in have]).items():
        for imported in imported_files(rel, source, modules):
            if imported not in allowed and not is_user_test(imported):
                allowed.append(imported)
    if facts.renamed:
        code = [r for r in existing if r.endswith(".py") and not is_user_test(r) and r not in allowed]
        allowed += [rel for rel, source in texts(code).items() if uses_any(source, facts.renamed)]
    return allowed
