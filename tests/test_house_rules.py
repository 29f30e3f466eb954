"""The whole house's shape: no function over 80 lines in the product's code, a thin crew runner,
and no import circle between the product's modules, deferred and type-only imports counted."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ["app.py", "agents", "gui", "mcp_server", "models", "tools"]
MAX_LINES = 80


def _sources() -> list[Path]:
    found: list[Path] = []
    for part in PRODUCT:
        path = ROOT / part
        found += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return found


def test_no_function_in_the_product_is_over_80_lines() -> None:
    long = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_LINES:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({lines} lines)")
    assert not long, long


def test_the_crew_runner_only_sequences_the_stages() -> None:
    lines = (ROOT / "agents" / "run" / "runner.py").read_text().count("\n")
    assert lines <= 450, f"agents/run/runner.py has {lines} lines"


def _module_of(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, known: set[str]) -> set[str]:
    """Project modules this one imports anywhere: at module level, under TYPE_CHECKING, or deferred
    into a function. A deferred import hides a circle from Python, not from a reader, who must
    follow it all the same."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in known}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            submodules = {f"{node.module}.{a.name}" for a in node.names} & known
            found |= submodules
            # `from package import submodule` alone does not run more of the package than the
            # submodule's own import does.
            if node.module in known and len(submodules) < len(node.names):
                found.add(node.module)
    return found


def test_no_import_circle_between_the_products_modules() -> None:
    paths = {_module_of(p): p for p in _sources()}
    graph = {name: _imports(path, set(paths)) - {name} for name, path in paths.items()}
    circles = []
    for start in graph:
        stack, seen = [(start, [start])], set()
        while stack:
            node, trail = stack.pop()
            for nxt in graph[node]:
                if nxt == start:
                    circles.append(" -> ".join(trail + [start]))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, trail + [nxt]))
    assert not circles, sorted(set(circles))[:5]
