"""Examples written in a docstring (`>>> f(2)` then `4`, `f(2) == 4`, "Input: ... Output: ..."),
as calls and expected values the crew can run as checks.

The forms are those HumanEval's docstrings use, read on the development half (problems 0-81).
"""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass

# How docstrings write "call gives value" outside doctest form, longest first.
_ARROWS = ("==>", "=>", "➞", "->", "==", " should return ", " returns ", " = ")


@dataclass(frozen=True)
class Example:
    call: str  # a Python expression calling the entry point, e.g. "add(2, 3)"
    expected: str  # a Python literal, e.g. "5"


def _literal(text: str) -> str | None:
    """`text` as a Python literal's repr, trying trims docstrings need ('16.', '2 (because ...)')."""
    text = text.strip()
    candidates = [text, text.split("#")[0], text.split(" (")[0], text.split(", ")[0], text.split(" = ")[-1]]
    candidates += [c.replace("true", "True").replace("false", "False") for c in candidates]
    for candidate in candidates:
        candidate = candidate.strip().rstrip(".").strip()
        if not candidate:
            continue
        try:
            return repr(ast.literal_eval(candidate))
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return None


def _calls_entry(expression: str, entry_point: str, known: set[str]) -> bool:
    """A Python expression that calls the entry point and uses no name the program lacks."""
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError:
        return False
    calls = any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == entry_point
        for n in ast.walk(tree)
    )
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    return calls and names <= known | {entry_point} | set(dir(builtins))


def _normal(expression: str) -> str:
    """One canonical spelling, without a trailing comment: the call is shown to the model as is."""
    return ast.unparse(ast.parse(expression.strip(), mode="eval"))


def _doctest_examples(lines: list[str], entry_point: str, known: set[str]) -> list[Example]:
    found = []
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.startswith(">>>"):
            continue
        call = stripped[3:].strip()
        want = []
        for following in lines[index + 1 :]:
            following = following.strip()
            if not following or following.startswith(">>>") or following.startswith('"""'):
                break
            want.append(following)
        expected = _literal(" ".join(want)) if want else None
        if expected is not None and _calls_entry(call, entry_point, known):
            found.append(Example(_normal(call), expected))
    return found


def _inline_examples(lines: list[str], entry_point: str, known: set[str]) -> list[Example]:
    found = []
    for line in lines:
        stripped = line.strip().lstrip("*").strip()
        stripped = stripped.removeprefix("for ").strip()
        if not stripped.startswith(entry_point + "("):
            continue
        for arrow in _ARROWS:
            if arrow not in stripped:
                continue
            call, _, rest = stripped.partition(arrow)
            call = call.split("#")[0].strip()
            rest = rest.replace("# =>", "").strip()
            expected = _literal(rest)
            if expected is not None and _calls_entry(call, entry_point, known):
                found.append(Example(_normal(call), expected))
                break
    return found


def _call_from_arguments(arguments: str, entry_point: str, parameters: list[str]) -> str | None:
    """`f(...)` from argument text such as `[4,2,3]` or `num = "AB"`; every argument a literal.

    Keywords that are not the function's own parameter names are passed by position, in order.
    """
    try:
        call = ast.parse(f"{entry_point}({arguments.strip().rstrip(',')})", mode="eval").body
        assert isinstance(call, ast.Call)
        for argument in [*call.args, *(k.value for k in call.keywords)]:
            ast.literal_eval(argument)
    except (SyntaxError, ValueError, TypeError, AssertionError, MemoryError, RecursionError):
        return None
    names = [k.arg for k in call.keywords]
    if names and (None in names or not set(names) <= set(parameters)):
        call = ast.Call(func=call.func, args=[*call.args, *(k.value for k in call.keywords)], keywords=[])
    return ast.unparse(call)


def _parameters(prompt: str, entry_point: str) -> list[str]:
    for node in ast.walk(ast.parse(prompt + "\n    pass\n")):
        if isinstance(node, ast.FunctionDef) and node.name == entry_point:
            return [a.arg for a in node.args.args]
    return []


def _input_output_examples(lines: list[str], entry_point: str, parameters: list[str]) -> list[Example]:
    """`Input: [4,2,3]` then `Output: [2, 1]`, and `For num = "AB" the output should be 1.`"""
    found = []
    pending: str | None = None
    for line in lines:
        stripped = line.strip()
        sentence = re.match(r"for (.+?),? the (?:output|result) should be (.+)$", stripped, re.I)
        if sentence:
            pending, stripped = sentence.group(1), "output: " + sentence.group(2)
        lowered = stripped.lower()
        if lowered.startswith("input:"):
            pending = stripped[len("input:") :]
        elif lowered.startswith("output:") and pending is not None:
            call = _call_from_arguments(pending, entry_point, parameters)
            expected = _literal(stripped[len("output:") :])
            if call is not None and expected is not None:
                found.append(Example(call, expected))
            pending = None
    return found


def _bare_word_examples(lines: list[str], entry_point: str, known: set[str]) -> list[Example]:
    """`is_happy(abcd) => True`: a string argument written without quotes."""
    found = []
    for line in lines:
        match = re.match(rf"\s*{re.escape(entry_point)}\(([A-Za-z]+)\)\s*(.*)$", line)
        if match and match.group(1) not in known | set(dir(builtins)):
            quoted = f"{entry_point}({match.group(1)!r}) {match.group(2)}"
            found += _inline_examples([quoted], entry_point, known)
    return found


def _misnamed_examples(lines: list[str], entry_point: str, known: set[str]) -> list[Example]:
    """`grade_equation([4.0, 3]) ==> [...]` where the docstring calls the function by another name."""
    found = []
    for line in lines:
        match = re.match(r"\s*(\w+)\((.*)$", line)
        if match and match.group(1) not in known | set(dir(builtins)) | {entry_point}:
            renamed = f"{entry_point}({match.group(2)}"
            found += _inline_examples([renamed], entry_point, known)
    return found


def docstring_examples(prompt: str, entry_point: str) -> list[Example]:
    """The examples a problem's prompt shows, in the first of the docstring forms that yields any.

    Forms, from the development half (problems 0-81): `>>> f(x)` + result lines; `f(x) == y` style
    lines; `Input:` / `Output:` pairs and "For x = 1 the output should be 2"; `f(abc) => y` with an
    unquoted string; a call under another name than the function's.
    """
    lines = prompt.splitlines()
    known = set(re.findall(r"^def (\w+)\s*\(", prompt, re.M))
    parameters = _parameters(prompt, entry_point)
    examples = (
        _doctest_examples(lines, entry_point, known)
        or _inline_examples(lines, entry_point, known)
        or _input_output_examples(lines, entry_point, parameters)
        or _bare_word_examples(lines, entry_point, known)
        or _misnamed_examples(lines, entry_point, known)
    )
    return list(dict.fromkeys(examples))
