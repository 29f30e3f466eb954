"""Whether the project's calls still fit the functions they call: a call of one of the project's
top-level functions (defined in the same module, `from m import f`, or `import m` then `m.f(...)`)
must bind to its parameters. Read from the source, nothing run, and only a break the run made counts.

Asked to change reminder_text to take one invoice dict "and fix the code that calls it", the 0.5B
changed the caller to pass the dict, left the function taking three arguments, and the crew
approved: every module still imported, and the project's tests did not call that path (sealed dev
11, 2026-11-27). The other way round (the function changed, a caller left behind) is the same. The
user's test files are not callers here: a test that calls the old way fails in the tests' run, and
the coder must not be sent to edit it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from agents.request import is_user_test
from agents.rules.rule import Stage, rule
from agents.rules.static.project_imports import import_target, module_name, parse_sources
from agents.rules.static.scan import StaticScan, sources_before

Signature = ast.arguments
Break = tuple[str, str, str, str]  # (calling file, module.function, the call, the parameters)


def _functions(tree: ast.Module) -> dict[str, Signature]:
    """The module's top-level functions whose signature is what a call binds to (no decorator)."""
    found: dict[str, Signature] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.decorator_list:
            found[node.name] = node.args
            continue
        # Bound to something else at the top (a class, a decorated def, an assignment): not plain.
        rebound = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            rebound = [node.name]
        elif isinstance(node, ast.Assign):
            rebound = [t.id for t in node.targets if isinstance(t, ast.Name)]
        for name in rebound:
            found.pop(name, None)
    return found


def binds(args: Signature, call: ast.Call) -> str | None:
    """Why `call` cannot bind to `args`, or None when it can (or cannot be told: *a, **k)."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    positional = [*args.posonlyargs, *args.args]
    if len(call.args) > len(positional) and args.vararg is None:
        return f"{len(call.args)} positional arguments for {len(positional)}"
    bound = {p.arg for p in positional[: len(call.args)]}
    by_name = {p.arg for p in args.args} | {p.arg for p in args.kwonlyargs}
    for keyword in call.keywords:
        if keyword.arg in bound:
            return f"{keyword.arg} given twice"
        if keyword.arg not in by_name and args.kwarg is None:
            return f"no parameter {keyword.arg}"
        bound.add(keyword.arg or "")
    first_default = len(positional) - len(args.defaults)
    missing = [p.arg for i, p in enumerate(positional) if i < first_default and p.arg not in bound]
    for parameter, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        if default is None and parameter.arg not in bound:
            missing.append(parameter.arg)
    return f"missing {', '.join(missing)}" if missing else None


def _callees(rel: str, tree: ast.Module, functions: dict[str, dict[str, Signature]]) -> dict[str, str]:
    """Names usable in `rel` for project functions: `f` or `m.f` -> module name."""
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            target = import_target(rel, node)
            for alias in node.names:
                if target in functions and alias.name in functions[target]:
                    names[alias.asname or alias.name] = f"{target}:{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:  # `import m` or `import pkg.m as m`: called as `m.f(...)`
                if alias.name in functions and (alias.asname or "." not in alias.name):
                    names[f"{alias.asname or alias.name}."] = alias.name
    own = module_name(rel)  # the module's own functions are defined after its imports, as a rule
    return names | {name: own for name in functions.get(own, {})}


def broken_calls(sources: dict[str, str]) -> set[Break]:
    """Each call, outside the user's tests, of a project function that it cannot bind to."""
    trees = parse_sources(sources)
    functions = {module_name(rel): _functions(tree) for rel, tree in trees.items()}
    broken: set[Break] = set()
    for rel, tree in trees.items():
        if is_user_test(rel):
            continue
        names = _callees(rel, tree, functions)
        for call, local in _calls(tree, frozenset()):
            module, name = _resolve(call.func, names, local)
            args = functions.get(module, {}).get(name) if module else None
            if args is not None and binds(args, call) is not None:
                broken.add((rel, f"{module}.{name}", ast.unparse(call), ast.unparse(args)))
    return broken


def _calls(node: ast.AST, local: frozenset[str]) -> Iterator[tuple[ast.Call, frozenset[str]]]:
    """Each call with the names local to the function it is in (a parameter `key` that shadows a
    module's key() is not a call of key())."""
    for child in ast.iter_child_nodes(node):
        inner = local
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            arguments = child.args
            every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
            every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
            names = [n for n in ast.walk(child) if isinstance(n, ast.Name)]
            inner = local | {a.arg for a in every} | {n.id for n in names if isinstance(n.ctx, ast.Store)}
        if isinstance(child, ast.Call):
            yield child, local
        yield from _calls(child, inner)


def _resolve(func: ast.expr, names: dict[str, str], local: frozenset[str]) -> tuple[str | None, str]:
    if isinstance(func, ast.Name) and func.id in local:
        return None, ""
    if isinstance(func, ast.Name) and func.id in names:
        module, _, imported = names[func.id].partition(":")
        return module, imported or func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id not in local:
        module = names.get(f"{func.value.id}.")
        return module, func.attr
    return None, ""


def new_call_breaks(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """What the coder is told: each call the run left not fitting its function."""
    problems = []
    for rel, function, call, parameters in sorted(broken_calls(after) - broken_calls(before)):
        module, _, name = function.rpartition(".")
        problems.append(
            f"{rel} calls {call}, which does not fit {name}({parameters}) in {module}: make every call of"
            f" {name} and its definition agree."
        )
    return problems


@rule(
    "project_calls",
    Stage.STATIC,
    reason="every call of a project function still fits its parameters after the run",
    evidence="bench/results/2026-11-27-project-calls-static",
)
def project_calls(scan: StaticScan) -> list[str]:
    """Every call of a project function, outside the user's tests, still fits its parameters."""
    return new_call_breaks(sources_before(scan), scan.sources)
