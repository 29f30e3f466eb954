"""Checks the crew runs against the code: the examples in its docstrings, or else a few assert
lines the reviewer writes.

A file that runs without an error proves little (`f - 32 * 5/9` runs fine). The reviewer writes
examples from the request and the code's signatures, never from its bodies, so its checks do not
copy the coder's mistake; the runner executes each statement on its own in the sandbox and reports
which failed with the values seen, which is feedback a small coder can act on.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from agents.rules.checks.docstring_examples import docstring_examples
from agents.rules.rule import Stage, rule

MAX_STATEMENTS = 8  # asserts; the lines that set up an object for them do not count
FENCED = re.compile(r"```[^\n]*\n(.*?)```", re.S)
_RESULT = re.compile(r"^LOCALCREW-CHECKS (\d+) (\d+)$", re.M)


@dataclass(frozen=True)
class CheckOutcome:
    passed: int
    total: int
    failures: list[str]

    @property
    def ok(self) -> bool:
        return self.total > 0 and self.passed == self.total


def _top_level(source: str) -> list[ast.stmt]:
    """The module's top-level statements; none when it does not parse."""
    try:
        return ast.parse(source).body
    except (SyntaxError, ValueError):
        return []


def signatures(source: str) -> str:
    """The module's top-level `def`/`class` lines (methods indented), without bodies."""
    lines: list[str] = []
    for node in _top_level(source):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines.append(f"def {node.name}({ast.unparse(node.args)})")
        elif isinstance(node, ast.ClassDef):
            lines.append(f"class {node.name}:")
            lines += [
                f"    def {item.name}({ast.unparse(item.args)})"
                for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            ]
    return "\n".join(lines)


@rule(
    "docstring_examples",
    Stage.CHECKS,
    reason="examples in docstrings run as asserts",
    evidence="bench/results/2026-11-25-humaneval-qwen2.5-coder-1.5b-dev",
)
def example_checks(source: str) -> str:
    """Assert lines from the examples in the docstrings of the module's functions."""
    lines: list[str] = []
    for node in _top_level(source):
        if isinstance(node, ast.FunctionDef) and ast.get_docstring(node):
            lines += [f"assert {e.call} == {e.expected}" for e in docstring_examples(source, node.name)]
    return "\n".join(dict.fromkeys(lines))


@rule(
    "reviewer_checks",
    Stage.CHECKS,
    reason="where no example exists, the reviewer writes asserts from the request",
    evidence="bench/results/2026-11-23-reviewer",
)
def parse_checks(reply: str) -> str:
    """The reply's statements that parse, up to the MAX_STATEMENTS-th assert; '' when none is one.

    Definitions are dropped (a check that redefines the function tests itself), and so are imports
    of the code under test: the runner puts its names in scope.
    """
    blocks = FENCED.findall(reply)
    text = "\n".join(blocks) if blocks else reply
    kept: list[str] = []
    for line in _statements(text):
        try:
            node = ast.parse(line).body[0]
        except (SyntaxError, ValueError, IndexError):
            continue
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.ImportFrom):
            continue
        kept.append(_value_on_the_right(node) or line)
    # The 1.5B wrote one totals_by_region assert four times; a pure call's repeat checks nothing new.
    kept = [line for i, line in enumerate(kept) if not (_pure_call_compared(line) and line in kept[:i])]
    kept = _at_most_asserts(_without_contradictions(kept), MAX_STATEMENTS)
    if not any(line.startswith("assert") for line in kept):
        return ""
    return "\n".join(kept)


def enough_checks(reply: str) -> bool:
    """Whether a reply being written already holds more assert lines than are ever kept."""
    return sum(line.lstrip().startswith("assert") for line in reply.splitlines()) > MAX_STATEMENTS


def bound_names(checks: str) -> set[str]:
    """Names the check lines themselves bind (`s = Stack()`); none when they do not parse."""
    try:
        tree = ast.parse(checks)
    except (SyntaxError, ValueError):
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def equality(node: ast.AST | None) -> tuple[ast.expr, ast.expr] | None:
    """(left, right) of `a == b`, one comparison; None for anything else."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq):
        return node.left, node.comparators[0]
    return None


def asserted_equal(node: ast.AST) -> tuple[ast.expr, ast.expr] | None:
    """(left, right) of `assert a == b`; None for any other statement."""
    return equality(node.test) if isinstance(node, ast.Assert) else None


def _value_on_the_right(node: ast.stmt) -> str:
    """`assert 16.09 == miles_to_km(10)` turned round: the check program reports the left side as
    the value it got, and told "got 16.09, expected 10.0" the coder would chase the wrong number.
    '' when the statement is not such an assert."""
    sides = asserted_equal(node)
    if sides is None:
        return ""
    left, right = sides
    try:
        ast.literal_eval(left)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return ""
    if not any(isinstance(n, ast.Call) for n in ast.walk(right)):
        return ""
    return ast.unparse(ast.Assert(ast.Compare(right, [ast.Eq()], [left]), node.msg))


def _at_most_asserts(statements: list[str], most: int) -> list[str]:
    """The statements up to and including the `most`-th assert."""
    kept: list[str] = []
    asserts = 0
    for line in statements:
        if asserts == most:
            break
        kept.append(line)
        asserts += line.startswith("assert")
    return kept


def _without_contradictions(statements: list[str]) -> list[str]:
    """Without asserts that give one call of a function on literal arguments different expected
    values: at most one of them is right and nothing says which (the 0.5B wrote count_levels('app.log')
    == three different dicts, and the crew rewrote correct code to match one)."""
    expected: dict[str, set[str]] = {}
    for line in statements:
        call = _pure_call_compared(line)
        if call:
            expected.setdefault(call[0], set()).add(call[1])
    clashing = {left for left, rights in expected.items() if len(rights) > 1}
    return [line for line in statements if (_pure_call_compared(line) or ("",))[0] not in clashing]


def _pure_call_compared(line: str) -> tuple[str, str] | None:
    """(call, expected) of `assert f(literals) == value`; None for anything else (a method call on
    an object may rightly give another value each time: two pops of a stack)."""
    try:
        node = ast.parse(line).body[0]
    except (SyntaxError, ValueError, IndexError):
        return None
    sides = asserted_equal(node)
    if sides is None:
        return None
    call, expected = sides
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
        return None
    try:
        for argument in [*call.args, *(k.value for k in call.keywords)]:
            ast.literal_eval(argument)
    except ValueError:
        return None
    return ast.dump(call), ast.dump(expected)


def _statements(text: str) -> list[str]:
    """Top-level statements of `text`, each as its own source; unparsable lines are skipped."""
    try:
        return [ast.get_source_segment(text, node) or "" for node in ast.parse(text).body]
    except (SyntaxError, ValueError):
        return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith(" ")]


def modules_of(paths: list[str]) -> list[str]:
    """Importable module names of the Python files written (tests and scripts with dashes skipped)."""
    names = []
    for rel in paths:
        path = PurePosixPath(rel)
        if path.suffix != ".py" or path.name.startswith("test_") or path.stem.endswith("_test"):
            continue
        parts = [*path.parent.parts, path.stem] if str(path.parent) != "." else [path.stem]
        if all(part.isidentifier() for part in parts):
            names.append(".".join(parts))
    return names


def check_program(modules: list[str], checks: str) -> str:
    """A stand-alone program that imports the modules and runs each check statement on its own."""
    return _PROGRAM.replace("__MODULES__", repr(modules)).replace("__CHECKS__", repr(checks))


def failed_check(failure: str) -> str:
    """The check's own text in a failure line ("assert f(1) == 2  ->  AssertionError: ...")."""
    return failure.partition("  ->  ")[0].strip()


def read_outcome(stdout: str) -> CheckOutcome | None:
    """What the program reported; None when it did not get to report (a crash, a timeout)."""
    found = _RESULT.findall(stdout)
    if not found:
        return None
    passed, total = (int(n) for n in found[-1])
    failures = [line[len("FAILED ") :] for line in stdout.splitlines() if line.startswith("FAILED ")]
    return CheckOutcome(passed, total, failures)


# Runs inside the sandbox with the workspace as its folder. Stdlib only.
_PROGRAM = r"""
import ast, contextlib, importlib, io, linecache, math, os, sys
sys.path.insert(0, ".")


def where(exc):
    # The deepest line of the workspace's code the error passed through: "ranking.py line 5:
    # numbers.sort()" is feedback a small coder acts on; the error's message alone often was not.
    found, tb, here = "", exc.__traceback__, os.getcwd() + os.sep
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if not name.startswith("<") and os.path.abspath(name).startswith(here):
            line = linecache.getline(name, tb.tb_lineno).strip()
            found = f" (at {os.path.relpath(name)} line {tb.tb_lineno}: {line})"
        tb = tb.tb_next
    return found

scope = {}
for name in __MODULES__:
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            module = importlib.import_module(name)
    except BaseException as exc:
        print(f"FAILED import {name}: {type(exc).__name__}: {exc}"[:300])
        continue
    scope.update({k: v for k, v in vars(module).items() if not k.startswith("__")})
    # `stats.mean([1, 2])`: reviewers also call through the module's name.
    scope.setdefault(name.rpartition(".")[2], module)
source = __CHECKS__


def compare(op, left, right):
    # 0.1 + 0.2 == 0.3 is what a check means: numbers compare with a small tolerance.
    numbers = (int, float)
    if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(left, numbers) and isinstance(right, numbers):
        close = math.isclose(left, right, rel_tol=1e-6, abs_tol=1e-9)
        return close if isinstance(op, ast.Eq) else not close
    tree = ast.Compare(ast.Name("a", ast.Load()), [op], [ast.Name("b", ast.Load())])
    code = compile(ast.fix_missing_locations(ast.Expression(tree)), "<check>", "eval")
    return eval(code, {"a": left, "b": right})


passed = total = 0
for node in ast.parse(source).body:
    text = ast.get_source_segment(source, node) or ""
    is_check = isinstance(node, ast.Assert)
    total += is_check
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            if is_check and isinstance(node.test, ast.Compare) and len(node.test.comparators) == 1:
                # Each side once (a call may have side effects), then the comparison on the values.
                right = eval(compile(ast.Expression(node.test.comparators[0]), "<check>", "eval"), scope)
                raises = isinstance(right, type) and issubclass(right, Exception)
                if raises and isinstance(node.test.ops[0], ast.Eq):
                    # `assert f([]) == ValueError` is how small models write "raises ValueError".
                    try:
                        left = eval(compile(ast.Expression(node.test.left), "<check>", "eval"), scope)
                    except right:
                        passed += 1
                        continue
                    raise AssertionError(f"got {left!r}, expected {right.__name__} to be raised")
                left = eval(compile(ast.Expression(node.test.left), "<check>", "eval"), scope)
                if not compare(node.test.ops[0], left, right):
                    raise AssertionError(f"got {left!r}, expected {right!r}")
            else:
                exec(compile(ast.Module([node], []), "<check>", "exec"), scope)
        passed += is_check
    except BaseException as exc:
        print(f"FAILED {text}  ->  {type(exc).__name__}: {exc}"[:240] + where(exc)[:160])
print(f"LOCALCREW-CHECKS {passed} {total}")
sys.exit(0 if total and passed == total else 1)
"""
