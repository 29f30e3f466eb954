"""A failing test as evidence for the coder: where it failed in the project's own code, the
assertion, and the value got against the one expected.

Read from pytest's output (its long, short or native tracebacks). The raw output is what the coder
was shown before: with `-rA` its tail is the list of every test's outcome, and the failure itself
had often been cut off; a native traceback is mostly pytest's and pluggy's own frames. Here only
the frames of files in the project are kept (a path pytest prints relative to the project), and
`assert 3 == 6` with `where 3 = total([1, 2, 3])` becomes "total([1, 2, 3]) gave 3; the test
expects 6".
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath as Path

from agents.rules.rule import Stage, rule

# "____ test_total ____" opens one failure's section; "____ ERROR collecting test_a.py ____" too.
_SECTION = re.compile(r"^_{3,} (.+?) _{3,}$")
_BANNER = re.compile(r"^={3,} (.+?) ={3,}$")
# A frame's location: `calc.py:13: in helper` (short), `calc.py:13: ZeroDivisionError` (long).
_LOCATION = re.compile(r"^(\S+?\.py):(\d+):(?: in (\S+)| *(\S.*)?)$")
# A native traceback's frame: `  File "calc.py", line 13, in helper`.
_NATIVE = re.compile(r'^\s*File "([^"]+)", line (\d+), in (\S+)$')
_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.M)
_COMPARED = re.compile(r"^(?:AssertionError: )?assert (.+?) (==|!=|<=|>=|<|>|in|not in|is|is not) (.+)$")
_WHERE = re.compile(r"^\+\s+where (.+?) = (.+)$")
MAX_TESTS = 3
MAX_EXCEPTION_LINES = 8


@dataclass
class Failure:
    """One failing test: its frames in the project (location, code line) and the error's lines."""

    name: str  # as the section header names it: test_total, TestCart.test_add, ERROR collecting a.py
    frames: list[tuple[str, str]] = field(default_factory=list)
    error: list[str] = field(default_factory=list)

    def text(self, test_id: str = "") -> str:
        lines = [f"{test_id or self.name} fails:"]
        lines += [f"  {where}: {code}" if code else f"  {where}" for where, code in self.frames[-6:]]
        lines += [f"  {line}" for line in self.error[:MAX_EXCEPTION_LINES]]
        got = got_and_expected(self.error)
        if got:
            lines.append(f"  So: {got}")
        return "\n".join(lines)


def project_path(path: str) -> bool:
    """A file of the project: pytest prints those relative to it; an installed package's (pytest,
    pluggy, the standard library) is absolute or under site-packages."""
    return not (
        path.startswith(("/", "<", "\\"))
        or re.match(r"^[A-Za-z]:[\\/]", path)
        or "site-packages" in path
        or "dist-packages" in path
    )


def got_and_expected(error: list[str]) -> str:
    """'total([1, 2, 3]) gave 3; the test expects 6' from pytest's assertion lines; '' when the
    error is no comparison. pytest's convention: `assert actual == expected`."""
    compared = next((m for m in map(_COMPARED.match, error) if m), None)
    if compared is None or compared.group(2) != "==":
        return ""
    got, expected = compared.group(1), compared.group(3)
    for line in error:
        where = _WHERE.match(line.strip())
        if where and where.group(1) == got:
            return f"{where.group(2)} gave {got}; the test expects {expected}"
    return f"got {got}; the test expects {expected}"


def _sections(output: str) -> list[tuple[str, list[str]]]:
    """Each failure's or error's section: (its header's name, its lines)."""
    sections: list[tuple[str, list[str]]] = []
    inside = False
    for line in output.splitlines():
        banner = _BANNER.match(line)
        if banner:
            inside = banner.group(1).strip() in ("FAILURES", "ERRORS")
            continue
        header = _SECTION.match(line)
        if inside and header:
            sections.append((header.group(1), []))
        elif inside and sections:
            sections[-1][1].append(line)
    return sections


def _failure(name: str, lines: list[str]) -> Failure:
    """The frames and the error of one section, in any of pytest's traceback styles: a long entry's
    failing line (`>`) comes before its location, a short or native one's after it."""
    failure = Failure(name)
    pending = ""  # a long entry's `>` line, waiting for its location
    located: str | None = None  # a short or native entry's location, waiting for its code line
    native_error = False
    for line in lines:
        stripped = line.strip()
        location, native = _LOCATION.match(line), _NATIVE.match(line)
        frame = native or (location if location and location.group(3) else None)
        if frame:
            located = f"{frame.group(1)}:{frame.group(2)}" if project_path(frame.group(1)) else None
            pending, native_error = "", False
        elif line.startswith(">"):
            pending = stripped.lstrip("> ").strip()
        elif line.startswith("E ") or line == "E":
            failure.error.append(line[1:].strip())
        elif location:  # a long entry's last line: its location, after its code
            if project_path(location.group(1)):
                failure.frames.append((f"{location.group(1)}:{location.group(2)}", pending))
            pending, located = "", None
        elif native_error and stripped:
            failure.error.append(stripped)
        elif located is not None and stripped and not set(stripped) <= set("^~ "):
            failure.frames.append((located, stripped))
            located = None
        elif _exception_line(line):  # a native traceback's exception, after its frames
            failure.error.append(stripped)
            native_error = True
    return failure


def _exception_line(line: str) -> bool:
    return bool(re.match(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)(:|$)", line))


def failures(output: str) -> dict[str, Failure]:
    """Each failure in pytest's output, by its test's id where `-rA`'s summary names it (the
    header says `test_total`; the summary `test_calc.py::test_total`)."""
    ids = _FAILED.findall(output)
    found: dict[str, Failure] = {}
    for name, lines in _sections(output):
        failure = _failure(name, lines)
        key = next((i for i in ids if _names(i, name)), name)
        found[key] = failure
    return found


def _names(test_id: str, header: str) -> bool:
    if header.startswith("ERROR collecting "):
        return test_id == header.removeprefix("ERROR collecting ").strip()
    return ".".join(test_id.split("::")[1:]) == header


@rule(
    "failure_evidence",
    Stage.PROMPT,
    reason=(
        "a failing test is shown as its assertion, the value got and the one expected, and the project's "
        "own frames; round 1 of a request about failing tests sees them fail, and the code they call is "
        "shown whole"
    ),
    evidence="bench/results/2026-11-28-test-judged-candidates",
)
def evidence(output: str, tests: list[str] | None = None, *, only: bool = False) -> str:
    """The failing tests of this output as the coder is shown them; `tests` first (the tests the
    request is about), or `only` them, at most MAX_TESTS. '' when the output holds no failure."""
    found = failures(output)
    wanted = [t for t in tests or [] if t in found]
    order = wanted + ([] if only else [t for t in found if t not in wanted])
    return "\n".join(found[t].text(t) for t in order[:MAX_TESTS])


MAX_CALLED_CHARS = 2000


def called_code(output: str, tests: list[str], sources: dict[str, str]) -> str:
    """The project's functions and classes the failing lines of `tests` call, whole, by file: the
    coder must see the line it is to change. Retrieved snippets of `balance()` stopped one line
    above its bug (`total = entry.amount`), and every try was written blind to it."""
    found = failures(output)
    lines = [code for t in tests if t in found for _, code in found[t].frames]
    called = {name for line in lines for name in re.findall(r"\b([A-Za-z_]\w*)\s*\(", line)}
    shown: list[str] = []
    for rel, text in sources.items():
        if Path(rel).name.startswith("test_") or not called:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name in called:
                shown.append(f"{rel}:\n```python\n{ast.get_source_segment(text, node)}\n```")
    text = "\n".join(shown)
    return text if len(text) <= MAX_CALLED_CHARS else text[:MAX_CALLED_CHARS] + "\n…"
