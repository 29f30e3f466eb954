"""What the request plainly asks for, checked in the code without running it.

A small reviewer's asserts are often wrong (bench.reviewer), but some misses need no assert: a
function the request writes as a call that no file defines, or a name the code reads that
nothing binds. Each is reported as a problem the coder's next try is told.
"""

from __future__ import annotations

import ast
import builtins
import symtable

from agents.request import RequestFacts
from agents.rules.write.edit_guard import definitions
from agents.rules.write.stray_methods import only_class, takes_self
from agents.source.definition_merge import top_level_functions

_BUILTINS = set(dir(builtins)) | {"__file__", "__builtins__"}
_INT_MAKERS = {"int", "round", "len", "floor", "ceil", "trunc", "ord", "count", "index", "find"}


def undefined_calls(facts: RequestFacts, sources: list[str]) -> list[str]:
    """Functions the request writes as calls (`done(item)`) that none of the sources defines, as a
    function, class or method; builtins and `x.method(...)` calls are not asked for."""
    asked = [name for name in facts.asked_calls if name not in _BUILTINS]
    if not asked:
        return []
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    defined = {node.name for tree in _trees(sources) for node in ast.walk(tree) if isinstance(node, kinds)}
    return [name for name in asked if name not in defined]


def ints_not_made(facts: RequestFacts, sources: list[str]) -> list[str]:
    """Functions a clause of the request says return a value "as an int" whose code never makes
    one: no int(), round(), len() or `//`, in the function or the project's functions it calls.
    (get_port returned config.json's 'port' as it was, so "9000" came back as text, and every
    check the 1.5B wrote read the one config.json, whose port is a number.)"""
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    for tree in _trees(sources):
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                functions.setdefault(node.name, node)
    return [
        name for name in functions if facts.says_as_int(name) and not _makes_an_int(name, functions, set())
    ]


def _makes_an_int(name: str, functions: dict[str, ast.AST], seen: set[str]) -> bool:
    seen.add(name)
    for node in ast.walk(functions[name]):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv):
            return True
        if not isinstance(node, ast.Call):
            continue
        called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        if called in _INT_MAKERS:
            return True
        if called in functions and called not in seen and _makes_an_int(called, functions, seen):
            return True
    return False


def unbound_names(source: str) -> list[str]:
    """Names the code reads that nothing binds: not the module (def, class, import, assignment, or
    a function's `global` assignment), not the enclosing function, not a builtin. Each is a
    NameError when its line runs (the 1.5B's signup.py called is_email from validators.py without
    importing it; its checks tested is_email alone and passed)."""
    try:
        top = symtable.symtable(source, "<code>", "exec")
        star = any(
            isinstance(node, ast.ImportFrom) and any(alias.name == "*" for alias in node.names)
            for node in ast.walk(ast.parse(source))
        )
    except (SyntaxError, ValueError):
        return []
    if star:  # what `from x import *` binds is not known here
        return []
    tables, queue = [], list(top.get_children())
    while queue:
        table = queue.pop()
        tables.append(table)
        queue += table.get_children()
    bound = {
        s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported() or s.is_namespace()
    }
    bound |= {
        s.get_name() for t in tables for s in t.get_symbols() if s.is_declared_global() and s.is_assigned()
    }
    read = [
        s.get_name() for t in [top, *tables] for s in t.get_symbols() if s.is_referenced() and s.is_global()
    ]
    return [name for name in dict.fromkeys(read) if name not in bound and name not in _BUILTINS]


def read_before_assigned(source: str) -> list[str]:
    """`function: name` where a function's first assignment to a name also reads it (`mean =
    mean(values)`, `total += x`): the assignment makes the name local to the whole function, so
    the read is an UnboundLocalError when the function runs (the 0.5B wrote `mean = mean(values)`
    in summary(), and the unbound-name check could not see it: the name is bound there)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    found = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        arguments = function.args
        parameters = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]} | {
            a.arg for a in (arguments.vararg, arguments.kwarg) if a
        }
        statements = _own_statements(function)
        declared = {
            name for node in statements if isinstance(node, ast.Global | ast.Nonlocal) for name in node.names
        }
        seen: set[str] = set(parameters | declared)
        for node in statements:
            targets = _assigned_names(node)
            if isinstance(node, ast.AugAssign):
                reads = targets
            elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                reads = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
            else:
                reads = set()
            found += [f"{function.name}: {name}" for name in sorted(targets & reads - seen)]
            seen |= targets | _assigned_names_anywhere(node)
    return list(dict.fromkeys(found))


def methods_outside_classes(source: str) -> dict[str, str]:
    """{function: class} for each top-level function whose first parameter is `self`, with the
    file's class it belongs in ('' when the file has none or several). Asked to add a method
    count() to TodoList, the 0.5B wrote `def count(self)` after the class, at the top level."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    owner = only_class(tree)
    return {
        name: owner.name if owner else ""
        for name, node in top_level_functions(tree).items()
        if takes_self(node)
    }


def _own_statements(function: ast.AST) -> list[ast.stmt]:
    """The function's statements in source order, nested functions and classes left out."""
    found: list[ast.stmt] = []
    for child in ast.iter_child_nodes(function):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(child, ast.stmt):
            found.append(child)
        found += _own_statements(child) if not isinstance(child, ast.expr) else []
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


def _assigned_names(node: ast.stmt) -> set[str]:
    targets = (
        node.targets
        if isinstance(node, ast.Assign)
        else [node.target]
        if isinstance(node, ast.AugAssign | ast.AnnAssign)
        else []
    )
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _assigned_names_anywhere(node: ast.stmt) -> set[str]:
    """Names a statement binds in other ways (for targets, with ... as, imports, except ... as)."""
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    if isinstance(node, ast.Import | ast.ImportFrom):
        names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def imports_for(names: list[str], sources: dict[str, str]) -> list[str]:
    """`from module import name` for each name one of the sources (by path) defines at top level."""
    found = []
    for rel, source in sources.items():
        defined = set(definitions(source) or [])
        module = rel.removesuffix(".py").replace("/", ".")
        found += [f"from {module} import {name}" for name in names if name in defined]
    return found


def _trees(sources: list[str]) -> list[ast.Module]:
    trees = []
    for source in sources:
        try:
            trees.append(ast.parse(source))
        except (SyntaxError, ValueError):
            continue
    return trees
