"""Rule modules_import: every Python file the run changed, and every project module that imports
one, still imports in the sandbox; every entry point among them (`if __name__ == "__main__"`) still
starts. Only what the run broke counts: each failure is tried again on the project as it was.

pytest imports only what the tests import: after issue 58's runs, "every check passed" over a
database.py holding the README's Markdown and a main.py raising ModuleNotFoundError.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import replace
from pathlib import PurePosixPath

from agents.request import is_test_file
from agents.rules.checks.entry_commands import LABEL as COMMANDS
from agents.rules.checks.entry_commands import broken_commands
from agents.rules.checks.named_commands import named_command_check
from agents.rules.checks.probe_program import HELPERS
from agents.rules.checks.written_checks import CheckOutcome
from agents.rules.rule import Stage, rule
from agents.rules.static.project_imports import import_target, module_name
from agents.run.crew_tools import Check, ToolContext, _report
from tools.sandbox import run_command
from tools.workspace_files import python_sources

LABEL = "imports"
MOST_MODULES = 8  # a check, not the project's import graph: a big project would take seconds
MOST_ENTRIES = 3
BASELINE_CHARS = 100_000  # the originals go in the program's text (one argv string: 128 KiB)


def _imported(rel: str, tree: ast.Module) -> set[str]:
    """The project module names a module's imports may name (`import a.b` names a and a.b)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                names.update(".".join(parts[: i + 1]) for i in range(len(parts)))
        elif isinstance(node, ast.ImportFrom):
            target = import_target(rel, node)
            if target:
                names.add(target)
                names.update(f"{target}.{alias.name}" for alias in node.names)
    return names


def _importable(rel: str) -> bool:
    path = PurePosixPath(rel)
    return path.suffix == ".py" and all(part.isidentifier() for part in path.with_suffix("").parts)


def is_entry_point(text: str) -> bool:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return "__main__" in text
    tests = [ast.unparse(node.test) for node in tree.body if isinstance(node, ast.If)]
    return any("__name__" in test and "__main__" in test for test in tests)


def targets(changed: list[str], sources: dict[str, str]) -> tuple[list[str], list[str]]:
    """(files to import, entry points to start): the changed Python files and the project's
    modules that import one, tests left out (pytest imports those)."""
    names = {module_name(rel) for rel in changed}
    importers = []
    for rel, text in sources.items():
        if rel in changed or is_test_file(rel):
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        if _imported(rel, tree) & names:
            importers.append(rel)
    files = [rel for rel in [*changed, *importers] if _importable(rel) and not is_test_file(rel)]
    files = files[:MOST_MODULES]
    entries = [rel for rel in files if is_entry_point(sources.get(rel, ""))][:MOST_ENTRIES]
    return files, entries


def changed_python(context: ToolContext) -> list[str]:
    """The Python files the run changed that are on disk now."""
    changed = []
    for rel in dict.fromkeys(context.written):
        if not rel.endswith(".py"):
            continue
        try:
            now = context.files.read_text(rel)
        except (ValueError, OSError):
            continue
        if now != context.originals.get(rel):
            changed.append(rel)
    return changed


@rule(
    "modules_import",
    Stage.CHECKS,
    reason=(
        "each Python file changed, and each module importing one, still imports in the sandbox, and each "
        "entry point still starts: pytest imports only what the tests do"
    ),
    evidence="tests/test_modules_import.py",
)
def broken_now(context: ToolContext) -> tuple[Check | None, list[str]]:
    """The sandbox's check of the changed files (None when nothing it found is the run's doing)
    and its lines: what no longer imports or starts."""
    changed = changed_python(context)
    if not changed or not context.rules.on(broken_now):
        return None, []
    files, entries = targets(changed, python_sources(context.files))
    if not files:
        return None, []
    originals = _baseline(context, changed) or {}  # none: a file that fails is the run's doing
    program = (
        _PROGRAM.replace("__FILES__", repr(files))
        .replace("__ENTRIES__", repr(entries))
        .replace("__ORIGINALS__", repr(originals))
    )
    limits = replace(context.limits, apply_back=False, wall_s=max(context.limits.wall_s, 30.0))
    result = run_command(context.root, [sys.executable, "-c", program], limits)
    lines = [line[len("BROKEN ") :] for line in result.stdout_tail.splitlines() if line.startswith("BROKEN ")]
    if not lines:
        return None, []  # nothing broken, or the probe itself did not finish: not the code's fault
    return _report(context, result, "; ".join(lines), command=LABEL), lines


def _baseline(context: ToolContext, changed: list[str]) -> dict[str, str | None] | None:
    """The changed files as they were, or None where they are too big to send (no baseline)."""
    originals = {rel: context.originals.get(rel) for rel in changed}
    return originals if len(repr(originals)) <= BASELINE_CHARS else None


def _command_check(context: ToolContext) -> Check | None:
    """The entry points' commands (rule entry_commands), where the run touched an entry point."""
    changed = changed_python(context)
    if not changed:
        return None
    _, entries = targets(changed, python_sources(context.files))
    check, _ = broken_commands(context, entries, _baseline(context, changed))
    return check


def with_import_checks(
    context: ToolContext, results: list[Check], outcome: CheckOutcome | None
) -> list[Check]:
    """The round's results with the import and command checks (rules modules_import, entry_commands,
    named_commands) among them when they failed; the written checks' run stays last (the feedback
    and the ranking read it there)."""
    ran = (broken_now(context)[0], _command_check(context), named_command_check(context))
    found = [check for check in ran if check is not None]
    if not found:
        return results
    return [*results[:-1], *found, results[-1]] if outcome and results else [*results, *found]


def import_failures(results: list[Check]) -> list[str]:
    """The lines of a failed import or command check among a round's results."""
    labels = (LABEL, COMMANDS)
    return [line for r in results if r.label in labels and not r.passed for line in r.problem.split("; ")]


# Runs in the sandbox, in the workspace. Each file is imported (as a module, not "__main__") and
# each entry point started in a process of its own, with no input and a short limit: one that
# hangs or exits cannot take the others with it. A failure is tried again on the project as it
# was (its Python files, the run's changes undone, in a temporary folder) and counts only when
# that one did not fail so. A start that is still running at its limit has started.
_PROGRAM = (
    HELPERS
    + r"""
FILES, ENTRIES, ORIGINALS = __FILES__, __ENTRIES__, __ORIGINALS__
STRUCTURAL = {"SyntaxError", "IndentationError", "TabError", "ImportError", "ModuleNotFoundError",
              "NameError"}
IMPORT = "import importlib, sys; sys.path.insert(0, '.'); importlib.import_module(sys.argv[1])"


def module(rel):
    parts = rel[:-3].split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def probe(root, argv, timeout):
    try:
        done = subprocess.run([sys.executable, *argv], cwd=root, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return ""
    if done.returncode == 0:
        return ""
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    if not lines or not re.match(r"^[\w.]+(Error|Exception|Exit)\b", lines[-1]):
        return "" if not lines else f"exit code {done.returncode}"
    return lines[-1][:200] + place(root, done.stderr)


before = None
for rel in FILES:
    now = probe(".", ["-c", IMPORT, module(rel)], 5)
    started = ""
    if not now and rel in ENTRIES:
        started = probe(".", [rel], 3)
        started = started if kind(started) in STRUCTURAL else ""
    if not (now or started):
        continue
    if ORIGINALS and before is None:
        before = baseline(ORIGINALS, False)
    existed = before is not None and os.path.exists(os.path.join(before, rel))
    if now:
        then = probe(before, ["-c", IMPORT, module(rel)], 5) if existed else "new"
        if not then or (kind(now) in STRUCTURAL and kind(then) not in STRUCTURAL):
            print(f"BROKEN {rel} does not import: {now}")
    else:
        then = probe(before, [rel], 3) if existed else ""
        if kind(then) not in STRUCTURAL:
            print(f"BROKEN {rel} does not start: {started}")
"""
)
