"""What the request plainly asks for, checked in the code without running it.

A small reviewer's asserts are often wrong (bench.reviewer), but some misses need no assert: a
function the request writes as a call that no file defines, or a parameter the request names that
its function never reads. Each is reported as a problem the coder's next try is told.
"""

from __future__ import annotations

import ast
import builtins
import re

_BUILTINS = set(dir(builtins))
_CALL = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\(")
_WORD = re.compile(r"[A-Za-z_]\w*")


def undefined_calls(request: str, sources: list[str]) -> list[str]:
    """Functions the request writes as calls (`done(item)`) that none of the sources defines, as a
    function, class or method; builtins and `x.method(...)` calls are not asked for."""
    asked = [name for name in dict.fromkeys(_CALL.findall(request)) if name not in _BUILTINS]
    if not asked:
        return []
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    defined = {node.name for tree in _trees(sources) for node in ast.walk(tree) if isinstance(node, kinds)}
    return [name for name in asked if name not in defined]


def unused_parameters(request: str, sources: list[str]) -> list[str]:
    """`function(parameter)` for each parameter the request names that its function never reads
    (asked for `sep`, the 0.5B added `sep=', '` and kept joining with ', ')."""
    named = set(_WORD.findall(request))
    found = []
    for tree in _trees(sources):
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or node.name not in named:
                continue
            arguments = node.args
            parameters = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
            read = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            found += [
                f"{node.name}({p.arg})"
                for p in parameters
                if p.arg in named and p.arg not in read and p.arg not in ("self", "cls")
            ]
    return found


def _trees(sources: list[str]) -> list[ast.Module]:
    trees = []
    for source in sources:
        try:
            trees.append(ast.parse(source))
        except (SyntaxError, ValueError):
            continue
    return trees
