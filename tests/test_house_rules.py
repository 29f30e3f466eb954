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


def _with_packages(module: str, imported: set[str], known: set[str]) -> set[str]:
    """What importing runs: each imported module's packages too (their __init__ runs first), but
    not the importing module's own, which are already under way."""
    own = {module.rsplit(".", n)[0] for n in range(1, module.count(".") + 1)}
    found = set(imported)
    for name in imported:
        parts = name.split(".")
        found |= {".".join(parts[:i]) for i in range(1, len(parts))} & known
    return found - own - {module}


def test_no_import_circle_between_the_products_modules() -> None:
    paths = {_module_of(p): p for p in _sources()}
    known = set(paths)
    graph = {name: _with_packages(name, _imports(path, known), known) for name, path in paths.items()}
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


def test_no_rule_is_looked_up_by_its_name() -> None:
    """A home asks `rules.on(function)` of the rule it applies: a name in a string is found by no
    reader, and no rename, as the registry's table beside the code once was."""
    found = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "on"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} on({node.args[0].value!r})")
    assert not found, found


def test_agents_is_a_floor_plan_of_a_dozen_entries() -> None:
    entries = sorted(p.name for p in (ROOT / "agents").iterdir() if p.name != "__pycache__")
    assert len(entries) <= 15, entries
    assert {"run", "llm", "rules", "request.py"} <= set(entries), entries


def test_the_runner_holds_no_rule() -> None:
    """Every rule is declared under agents/rules/<stage>/; run/ only sequences and asks."""
    declared = []
    for path in sorted((ROOT / "agents").rglob("*.py")):
        if "rules" in path.relative_to(ROOT / "agents").parts[:1]:
            continue
        if "@rule(" in path.read_text(encoding="utf-8"):
            declared.append(str(path.relative_to(ROOT)))
    assert not declared, declared


# Where the request's own words may be used outside agents/request.py: each passes them on whole
# (into a prompt, as the retrieval or documentation query) or is where they come in.
WORDS_PASSED_ON = {
    ("agents/llm/roles.py", "planner_task"),
    ("agents/llm/roles.py", "coder_task"),
    ("agents/llm/roles.py", "plain_task"),
    ("agents/llm/roles.py", "checks_task"),
    ("agents/run/coder_turn.py", "run"),  # the coder's task
    ("agents/run/checks.py", "write_checks"),
    ("agents/run/runner.py", "_plan"),
    ("agents/run/runner.py", "_new_state"),
    ("agents/run/runner.py", "run"),
    ("agents/run/runner.py", "_run_rounds"),  # kept whole with the question asked about them
    ("agents/rules/settle/check_disputes.py", "question"),
    ("agents/rules/prompt/api_lookup.py", "docs_named"),
    ("agents/rules/prompt/answer_questions.py", "answer_question"),  # the question, into its prompt
    ("agents/context_retrieval.py", "retrieve"),
    ("agents/headless.py", "usage_problem"),
    ("agents/headless.py", "run_ask"),
}


def _reads_the_words(function: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """How a function takes the request's words, if it does: a parameter named `request`, or the
    `text` of a RequestFacts (`facts.text`, `state.facts.text`)."""
    params = [a.arg for a in [*function.args.args, *function.args.kwonlyargs]]
    if "request" in params:
        return "a `request` parameter"
    for node in ast.walk(function):
        if isinstance(node, ast.Attribute) and node.attr == "text":
            owner = node.value
            name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", "")
            if name == "facts":
                return f"facts.text at line {node.lineno}"
    return ""


def test_the_request_is_read_only_in_the_request_module_and_the_prompt_builders() -> None:
    """A rule asks RequestFacts what the request says; only agents/request.py runs patterns over
    its words, so what a request names or lets go is decided once (issue 56: 13 functions in 10
    files had re-read `facts.text` their own way)."""
    found, used = [], set()
    for path in sorted((ROOT / "agents").rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        if rel == "agents/request.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            how = _reads_the_words(node)
            if how and (rel, node.name) not in WORDS_PASSED_ON:
                found.append(f"{rel}:{node.lineno} {node.name}() reads the request's words: {how}")
            elif how:
                used.add((rel, node.name))
    assert not found, found
    assert used == WORDS_PASSED_ON, sorted(WORDS_PASSED_ON - used)  # the list names no stale place
