"""Rule failing_trace: what the code under test did on the failing test, line by line, shown to
the coder with the failure (issue 55: "the failure as evidence ... a short trace of the function
under test on the failing input, the lines executed and the locals that changed").

The failing test runs once more in the sandbox under `sys.settrace`, which records only frames of
the project's own files that are not tests: each line run, with the local values it changed, and
what each call returned. Off by default until a dev set says it helps.
"""

from __future__ import annotations

import sys
from dataclasses import replace

from agents.rules.rule import Stage, rule
from agents.run.crew_tools import ToolContext
from tools.sandbox import run_command

MARK = "----- localcrew trace -----"
TRACE_S = 60.0  # one test under a tracer: pytest's start on a loaded machine is most of it
MOST_LINES = 40

# Run in the project folder, in the sandbox: pytest on one test, the tracer on around its call.
PROGRAM = r"""
import linecache, os, sys
import pytest

ROOT = os.path.realpath(os.getcwd()) + os.sep
MOST, VALUE = int(sys.argv[2]), 50
out, last, line_of = [], {}, {}  # the trace; per frame: its locals as last seen, its last line


def shown(value):
    try:
        text = repr(value)
    except Exception:
        text = "<unprintable>"
    return text if len(text) <= VALUE else text[: VALUE - 3] + "..."


def ours(code):
    if not os.path.isabs(code.co_filename):  # "<frozen os>", "<string>"
        return None
    path = os.path.realpath(code.co_filename)
    if not path.startswith(ROOT):
        return None
    rel = path[len(ROOT):]
    name = os.path.basename(rel)
    if name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py":
        return None
    if any(part in ("tests", "test", "site-packages") for part in rel.split(os.sep)[:-1]):
        return None
    return rel


def values(frame):
    return {k: shown(v) for k, v in frame.f_locals.items() if not k.startswith("__")}


def local(frame, event, arg):
    if len(out) >= MOST:
        return None
    key = id(frame)
    before = last.get(key, {})
    now = values(frame)
    changed = ", ".join(f"{k}={v}" for k, v in now.items() if before.get(k) != v)
    if changed and key in line_of:  # what the frame's previous line set
        out[line_of[key]] += f"    -> {changed}"
    last[key] = now
    if event == "line":
        source = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
        line_of[key] = len(out)
        out.append(f"  {frame.f_lineno:>4}  {source[:60]}")
    elif event == "return":
        out.append(f"  {frame.f_code.co_name} returned {shown(arg)}")
    elif event == "exception":
        out.append(f"  raised {arg[0].__name__}: {shown(arg[1])}")
    return local


def called(frame, event, arg):
    if event != "call" or len(out) >= MOST:
        return None
    rel = ours(frame.f_code)
    if rel is None:
        return None
    args = ", ".join(f"{k}={v}" for k, v in values(frame).items())
    out.append(f"{frame.f_code.co_name}({args}) in {rel}")
    last[id(frame)] = values(frame)
    return local


class Tracer:
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item):
        sys.settrace(called)
        try:
            yield
        finally:
            sys.settrace(None)


argv = ["-q", "-p", "no:cacheprovider", "-c", os.devnull, "--rootdir=.", "--confcutdir=.", sys.argv[1]]
pytest.main(argv, plugins=[Tracer()])
print("\n" + sys.argv[3])
print("\n".join(out))
if len(out) >= MOST:
    print(f"(cut at {MOST} lines)")
"""


@rule(
    "failing_trace",
    Stage.PROMPT,
    reason=(
        "round 1 of a request about failing tests is shown what the code under test did on one of"
        " them: each line run, the locals it changed, what it returned"
    ),
    evidence="tests/test_failing_trace.py",
    default=False,
)
def failing_trace(context: ToolContext, test_id: str) -> str:
    """The trace of the code `test_id` runs, as the coder is shown it ('' when none was read)."""
    limits = replace(context.limits, wall_s=max(context.limits.wall_s, TRACE_S), apply_back=False)
    argv = [sys.executable, "-c", PROGRAM, test_id, str(MOST_LINES), MARK]
    result = run_command(context.root, argv, limits)
    _, found, trace = result.stdout_tail.partition(MARK)
    trace = trace.strip()
    if not found or not trace:
        return ""
    return f"What the code under test did on {test_id} (each line run, then the values it set):\n{trace}"
