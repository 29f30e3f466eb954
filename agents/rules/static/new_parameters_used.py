"""Rule new_parameters_used: a parameter a function gains in the run is used in its code.

Asked to give join_names a `sep` and bullet_list a `marker`, the 0.5B added both parameters and
left the code as it was; the reviewer's asserts passed only the defaults, and the run was approved
with neither parameter doing anything (acceptance request 31). Its predecessor, keyed on the names
the request used, was deleted when an ablation counting passes missed the approval it prevented."""

from __future__ import annotations

import ast

from agents.rules.rule import Stage, rule
from agents.rules.static.scan import StaticScan

Functions = dict[str, ast.FunctionDef | ast.AsyncFunctionDef]


def _functions(source: str | None) -> Functions:
    """Top-level functions and methods, by qualified name (`Class.method`)."""
    try:
        tree = ast.parse(source or "")
    except (SyntaxError, ValueError):
        return {}
    found: Functions = {}
    for node in tree.body:
        kind = (ast.FunctionDef, ast.AsyncFunctionDef)
        if isinstance(node, kind):
            found[node.name] = node
        elif isinstance(node, ast.ClassDef):
            found |= {f"{node.name}.{item.name}": item for item in node.body if isinstance(item, kind)}
    return found


def _parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    args = function.args
    named = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    named += [a for a in (args.vararg, args.kwarg) if a is not None]
    return [a.arg for a in named]


def _reads(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    body = ast.Module(body=function.body, type_ignores=[])
    return {n.id for n in ast.walk(body) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def unused_new_parameters(before: str | None, after: str) -> list[tuple[str, str]]:
    """(function, parameter) for each parameter an existing function gained and never reads."""
    old, found = _functions(before), []
    for name, function in _functions(after).items():
        if name not in old:
            continue  # a new function: nothing to compare with
        had, reads = set(_parameters(old[name])), _reads(function)
        for parameter in _parameters(function):
            if parameter not in had and parameter not in reads and not parameter.startswith("_"):
                found.append((name, parameter))
    return found


@rule(
    "new_parameters_used",
    Stage.STATIC,
    reason="a parameter a function gains in the run is used in its code: added and ignored, it passes "
    "checks that try only its default",
    evidence="bench/results/2026-11-29-new-parameters-used-acceptance-0.5b",
    per_file=True,
)
def new_parameters_used(scan: StaticScan, rel: str) -> list[str]:
    before = scan.originals.get(rel)
    if before is None:
        return []
    return [
        f"In {rel}, {function}() now takes {parameter} but never uses it: make the code do what"
        f" {parameter} is for."
        for function, parameter in unused_new_parameters(before, scan.sources[rel])
    ]
