"""A second opinion on the reviewer's failed checks: the model is asked, without the code and
without either value, for an expression that computes what a disputed call must return (or it
writes the function again, which is run on the call); where that gives the code's value and not
the reviewer's, the check is dropped.

On real coders the reviewer's expected values are often wrong (`c_to_f(37) == 99.4`), and one
wrong check sends a right answer back for every remaining round. The question shows the request
and the data files it names, and nothing that anchors the answer on either side (no code, no
value, no signatures), so a reply that agrees with the code is a vote the reviewer lost. Where
the model shares the code's mistake it outvotes a right check: bench.reviewer counts both kinds
of drop.
"""

from __future__ import annotations

import ast
import math
import re
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from agents.request import RequestFacts
from agents.rules.checks.written_checks import FENCED, asserted_equal, bound_names, equality
from agents.rules.rule import Stage, rule
from tools.sandbox import RunLimits, RunResult, run_command

MAX_QUESTIONS = 3  # per round: each is a model call
_FAILED = re.compile(
    r"^(?P<check>assert .+?)  ->  AssertionError: got (?P<got>.+), expected (?P<expected>.+)$"
)
_VALUE = re.compile(r"^LOCALCREW-VALUE (.*)$", re.M)


@dataclass(frozen=True)
class Dispute:
    check: str  # the assert statement as the reviewer wrote it
    call: str  # its left side: what is asked about
    got: object  # what the code gave
    expected: object  # what the reviewer wrote


def _value(text: str) -> tuple[bool, object]:
    try:
        return True, ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def same(a: object, b: object) -> bool:
    """Equal as a check compares them: numbers with a small tolerance (like the check program),
    inside lists, tuples and dicts too; 1 and True differ."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:  # noqa: BLE001 - odd values compare as different
        return False


@rule(
    "second_opinion",
    Stage.SETTLE,
    reason="a check the model, asked without the code, answers as the code does is dropped",
    evidence="bench/results/2026-11-26-crew-1.5b-second-opinion",
)
def disputes(checks: str, failures: list[str]) -> list[Dispute]:
    """The failed checks a second opinion can settle: `assert <call> == <literal>` whose call uses
    no name the checks bind, and whose failure shows the code's value as a literal."""
    bound = bound_names(checks)  # a call on them depends on state the question could not show
    found = []
    for failure in failures:
        match = _FAILED.match(failure.strip())
        if not match or match["expected"].endswith(" to be raised"):
            continue
        ok, got = _value(match["got"])
        if not ok:
            continue
        try:
            node = ast.parse(match["check"]).body[0]
        except (SyntaxError, ValueError, IndexError):
            continue
        sides = asserted_equal(node)
        if sides is None:
            continue
        call, right = sides
        literal, expected = _value(ast.unparse(right))
        if not literal:
            continue
        names = {n.id for n in ast.walk(call) if isinstance(n, ast.Name)}
        if names & bound or not any(isinstance(n, ast.Call) for n in ast.walk(call)):
            continue
        found.append(Dispute(match["check"], ast.unparse(call), got, expected))
    return found


# The question's own examples: an answer that only repeats one is no answer (asked what
# join_names([...]) must return, the 0.5B replied `(2 + 4) / 2` three times in a row).
EXAMPLE_ANSWERS = ("(2 + 4) / 2", "'a' + 'b'")
_EXAMPLES_UNPARSED = {ast.unparse(ast.parse(e, mode="eval")) for e in EXAMPLE_ANSWERS}


def question(call: str, facts: RequestFacts, data: str = "") -> str:
    # An expression, not a value: asked for the value, the 1.5B guessed `mean([1..6])` as 10.0;
    # asked for an expression it wrote `(37 * 9/5) + 32` and `10 * 1.609344`, and the sandbox adds.
    return (
        (f"The data files:\n{data}\n\n" if data else "") + f"Request: {facts.text}\n\n"
        f"What must `{call}` return, by the request? Do not write code or call the functions the request"
        " names: reply with one Python expression that computes the value from the numbers or text"
        f" involved (for example `{EXAMPLE_ANSWERS[0]}` or `{EXAMPLE_ANSWERS[1]}`), in one line:"
        "\n```python\n...\n```"
    )


# What an answer's expression may use: literals, operators and pure builtins. No name reaches a
# file, a module or a dunder, so evaluating it can change nothing.
_PURE = {
    "abs", "all", "any", "bool", "dict", "divmod", "float", "int", "len", "list", "max", "min",
    "pow", "range", "reversed", "round", "set", "sorted", "str", "sum", "tuple", "zip",
}  # fmt: skip
_NODES = (
    ast.Expression, ast.Constant, ast.List, ast.Tuple, ast.Set, ast.Dict, ast.BinOp, ast.UnaryOp,
    ast.BoolOp, ast.Compare, ast.IfExp, ast.Subscript, ast.Slice, ast.Call, ast.Attribute, ast.Name,
    ast.Load, ast.Store, ast.operator, ast.unaryop, ast.boolop, ast.cmpop, ast.keyword,
    ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.comprehension, ast.JoinedStr,
    ast.FormattedValue, ast.Starred,
)  # fmt: skip


def _pure(tree: ast.Expression) -> bool:
    bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    for node in ast.walk(tree):
        if not isinstance(node, _NODES):
            return False
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            return False
        if isinstance(node, ast.Name) and node.id not in _PURE | bound:
            return False
    return True


def answer_expression(reply: str) -> str | None:
    """The pure expression a reply ends with (its fenced block's last line, else its last line);
    None for code, a call of anything but a pure builtin, or no answer. A bare word is a string."""
    blocks = FENCED.findall(reply)
    text = blocks[-1] if blocks else reply
    lines = [line.strip().strip("`").strip() for line in text.splitlines() if line.strip()]
    if not lines or any(line.startswith(("def ", "class ", "import ", "from ")) for line in lines):
        return None
    last = lines[-1]
    try:
        tree = ast.parse(last, mode="eval")
    except (SyntaxError, ValueError):
        return None
    sides = equality(tree.body)
    if sides:
        tree = ast.Expression(sides[1])  # `f(1) == 2`: the value is its right side
    if isinstance(tree.body, ast.Name) and tree.body.id not in _PURE:
        return repr(tree.body.id)
    if ast.unparse(tree) in _EXAMPLES_UNPARSED:
        return None
    return ast.unparse(tree) if _pure(tree) else None


def _root_name(call: str) -> str:
    """`Stack().push(1)` -> Stack: the name a second implementation must define."""
    node: ast.AST = ast.parse(call, mode="eval").body
    while isinstance(node, ast.Call | ast.Attribute | ast.Subscript):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else ""


def second_implementation(reply: str, call: str) -> str | None:
    """The code of a reply that, instead of a value, wrote what `call` calls again (asked about an
    edit, the 1.5B answered with the fixed function); None when its last block defines no such name."""
    blocks = FENCED.findall(reply)
    try:
        tree = ast.parse(blocks[-1]) if blocks else None
    except (SyntaxError, ValueError):
        return None
    root = _root_name(call)
    defined = {n.name for n in (tree.body if tree else []) if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    return blocks[-1] if root and root in defined else None


def _printing(call: str, code: str = "") -> str:
    return (f"{code}\n" if code else "") + f"print('LOCALCREW-VALUE ' + repr({call}))"


def answer_program(reply: str, call: str) -> str | None:
    """A program that prints the value the reply gives for `call`: its pure expression, or, where
    the reply wrote code instead, that code and the call. None when the reply gives neither."""
    expression = answer_expression(reply)
    if expression is not None:
        return _printing(expression)
    code = second_implementation(reply, call)
    # A second implementation: where it agrees with the code, the reviewer is outvoted.
    return _printing(call, code) if code else None


class CheckDisputes:
    """Asks about each failed check once per value the code gave (the same question gets the same
    answer); `settle` returns the checks the second opinion sided against. `ask(call, prompt)` gets
    the model's reply; `evaluate` runs an answer's program (in the sandbox) and gives (ok, value)."""

    def __init__(self) -> None:
        self._asked: dict[tuple[str, str], bool] = {}
        # name -> a second implementation the model wrote: it answers every later call of the name
        # (asked about count_words("") after writing a right count_words, the 1.5B answered "1",
        # the number the request gave as the bug).
        self.implementations: dict[str, str] = {}

    def settle(
        self,
        checks: str,
        failures: list[str],
        facts: RequestFacts,
        data: str = "",
        *,
        ask: Callable[[str, str], str],
        evaluate: Callable[[str], tuple[bool, object]],
    ) -> list[str]:
        dropped = []
        questions = 0
        for dispute in disputes(checks, failures):
            key = (dispute.check, repr(dispute.got))
            if key not in self._asked:
                known = self.implementations.get(_root_name(dispute.call))
                if known:
                    ok, value = evaluate(_printing(dispute.call, known))
                elif questions >= MAX_QUESTIONS:
                    continue
                else:
                    questions += 1
                    ok, value = self._answer(ask, dispute.call, question(dispute.call, facts, data), evaluate)
                self._asked[key] = ok and same(value, dispute.got) and not same(value, dispute.expected)
            if self._asked[key]:
                dropped.append(dispute.check)
        return dropped

    def _answer(
        self,
        ask: Callable[[str, str], str],
        call: str,
        prompt: str,
        evaluate: Callable[[str], tuple[bool, object]],
    ) -> tuple[bool, object]:
        reply = ask(call, prompt)
        expression = answer_expression(reply)
        if expression is not None:
            ok, value = _value(expression)  # a literal needs no sandbox run
            if ok:
                return ok, value
        elif code := second_implementation(reply, call):
            self.implementations[_root_name(call)] = code
        program = answer_program(reply, call)
        return evaluate(program) if program else (False, None)


def without(checks: str, dropped: list[str]) -> str:
    """The check lines with the dropped statements removed; '' when no assert is left."""
    try:
        tree = ast.parse(checks)
    except (SyntaxError, ValueError):
        return checks
    kept = [
        ast.get_source_segment(checks, node) or ""
        for node in tree.body
        if (ast.get_source_segment(checks, node) or "") not in dropped
    ]
    return "\n".join(kept) if any(k.startswith("assert") for k in kept) else ""


def write_beside(folder: Path, files: dict[str, str]) -> None:
    """Write `files` into `folder`, never outside it (an absolute path or a `..` is skipped)."""
    for name, text in files.items():
        if Path(name).is_absolute() or ".." in Path(name).parts:
            continue
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)


def run_beside(program: str, limits: RunLimits, files: dict[str, str] | None = None) -> RunResult:
    """Run `program` in the sandbox in an empty folder holding only `files`: nothing it does
    reaches the workspace."""
    with tempfile.TemporaryDirectory(prefix="localcrew-value-") as folder:
        write_beside(Path(folder), files or {})
        return run_command(
            Path(folder), [sys.executable, "-c", program], replace(limits, wall_s=min(limits.wall_s, 5.0))
        )


def evaluate_in_sandbox(
    program: str, limits: RunLimits, files: dict[str, str] | None = None
) -> tuple[bool, object]:
    """(ok, value) that answer_program's program prints, run beside `files` only (the data files
    the request names): `10 ** 10 ** 10` or a second implementation meets the sandbox's limits,
    never the workspace."""
    result = run_beside(program, limits, files)
    found = _VALUE.findall(result.stdout_tail)
    return _value(found[-1]) if result.exit_code == 0 and found else (False, None)
