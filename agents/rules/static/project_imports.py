"""Whether the project's modules still import one another: every `from m import name` where m is
one of the project's modules must find `name` there. Read from the source, nothing run, and only a
break the run made counts (an import broken before the run is not its doing).

Asked to rename calc to multiply "and update every use", the 1.5B renamed it in mathops.py, left
`from mathops import calc` in invoice.py, and the crew approved a project that no longer imports.
"""

from __future__ import annotations

import ast
from pathlib import PurePosixPath

from agents.rules.rule import Stage, rule
from agents.rules.static.scan import StaticScan, sources_before


def module_name(rel: str) -> str:
    path = PurePosixPath(rel).with_suffix("")
    parts = list(path.parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _defined(tree: ast.Module) -> set[str] | None:
    """The names a module binds at its top level; None when anything may be there (`import *`, a
    module `__getattr__`)."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
            if node.name == "__getattr__":
                return None
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*":
                    return None
                names.add(alias.asname or alias.name.split(".")[0])
        else:
            # Assignments, and names bound inside if/try/with/for at the top level.
            for inner in ast.walk(node):
                if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                    names.add(inner.id)
                elif isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(inner.name)
                elif isinstance(inner, ast.Import | ast.ImportFrom):
                    names.update(a.asname or a.name.split(".")[0] for a in inner.names)
    return names


def import_target(rel: str, node: ast.ImportFrom) -> str | None:
    if not node.level:
        return node.module
    package = module_name(rel).split(".")
    if not rel.endswith("__init__.py"):
        package = package[:-1]
    if node.level - 1 > len(package):
        return None
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def parse_sources(sources: dict[str, str]) -> dict[str, ast.Module]:
    """Each source that parses, by its path (one that does not is another check's business)."""
    trees: dict[str, ast.Module] = {}
    for rel, text in sources.items():
        try:
            trees[rel] = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
    return trees


def broken_imports(sources: dict[str, str]) -> set[tuple[str, str, str]]:
    """(importing file, module, name) for each project import of a name the module lacks."""
    trees = parse_sources(sources)
    modules = {module_name(rel): rel for rel in sources}
    defined = {name: _defined(trees[rel]) for name, rel in modules.items() if rel in trees}
    broken = set()
    for rel, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            target = import_target(rel, node)
            if target not in defined or defined[target] is None:
                continue
            for alias in [a for a in node.names if a.name != "*"]:
                submodule = f"{target}.{alias.name}"
                if alias.name not in defined[target] and submodule not in modules:  # type: ignore[operator]
                    broken.add((rel, target, alias.name))
    return broken


def new_breaks(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """What the coder is told: each import the run broke."""
    problems = []
    for rel, module, name in sorted(broken_imports(after) - broken_imports(before)):
        problems.append(
            f"{rel} imports {name} from {module}, which no longer defines it: update {rel} (and every"
            f" other use of {name}) or keep {name} in {module}."
        )
    return problems


@rule(
    "project_imports",
    Stage.STATIC,
    reason="every module of the project still imports what it imports from the others",
    evidence="tests/test_project_imports.py",
)
def project_imports(scan: StaticScan) -> list[str]:
    """Every module of the project still imports what it imports from the others."""
    return new_breaks(sources_before(scan), scan.sources)
