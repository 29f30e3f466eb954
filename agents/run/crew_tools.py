"""What the crew runner does to the workspace: the write tool and the sandboxed checks, each
reported on the event bus.

The write tool (a CrewAI BaseTool, so its arguments are validated by the same schema a tool call
would be) never raises: errors (a path outside the workspace, a lossy rewrite) become the text the
runner feeds back, and a ToolCallFailed event.
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from crewai.tools import BaseTool
from pydantic import BaseModel, Field, PrivateAttr

from agents.events import (
    CheckRun,
    EventBus,
    FileChanged,
    ToolCallFailed,
    ToolCallFinished,
    ToolCallStarted,
    preview,
)
from agents.request import RequestFacts
from agents.rules.checks.written_checks import CheckOutcome, check_program, read_outcome
from agents.rules.rule import RuleSwitches
from agents.rules.write.draft import WriteDraft
from agents.rules.write.stage import write_rules
from agents.run.tests_before import REGRESSED, TestResults, verdict
from tools.sandbox import RunLimits, RunResult, run_command, run_pytest, run_python
from tools.web_docs import WebDocs
from tools.workspace_files import WorkspaceError, WorkspaceFiles, python_sources

OBSERVATION_CHARS = 2000


@dataclass
class ToolContext:
    """What every tool of one run shares: the workspace, the bus, and what was done."""

    files: WorkspaceFiles
    bus: EventBus
    limits: RunLimits = field(default_factory=RunLimits)
    agent: str = "coder"
    request: str = ""  # the user's words: a definition they ask to remove may go
    written: list[str] = field(default_factory=list)
    runs: list[RunResult] = field(default_factory=list)
    # Each file as it was before the run's first write to it (None: it did not exist), so the
    # lost-definition check guards the user's definitions, not those an earlier round added.
    originals: dict[str, str | None] = field(default_factory=dict)
    created: set[str] = field(default_factory=set)  # files this run created (none there before)
    rules: RuleSwitches = field(default_factory=RuleSwitches)
    web_docs: WebDocs | None = None  # None: documentation is read offline only
    facts: RequestFacts = field(init=False)

    def __post_init__(self) -> None:
        self.facts = RequestFacts.read(self.request)

    @property
    def root(self) -> Path:
        return self.files.root


NOTHING_PRINTED = "it printed nothing, though the request asks for printed output"
STOPPED_AT_INPUT = "it ran up to input(): a check gives a program no input"


@dataclass(frozen=True)
class Check:
    """A sandboxed run and its verdict."""

    result: RunResult
    problem: str = ""  # why a run that exited 0 still fails
    label: str = ""  # what to call it, where the command line says nothing ("written checks")
    # An interactive program (a guessing game) ends with EOFError at its first input(): the 1.5B's
    # right game failed every round for it.
    stopped_at_input: bool = False
    # Tests that failed before the run too, and the request is not about: the run is not held to
    # them (agents/run/tests_before.py).
    excused: tuple[str, ...] = ()
    # The failing tests the request is about that still fail after this run (None: not known).
    still_failing: tuple[str, ...] | None = None

    @property
    def passed(self) -> bool:
        ran = (
            self.result.exit_code == 0
            or self.stopped_at_input
            or (bool(self.excused) and self.result.exit_code == 1)
        )
        return ran and self.result.limit_hit is None and not self.problem

    @property
    def note(self) -> str:
        if self.excused:
            return f"{len(self.excused)} failing as before the run: {', '.join(self.excused[:4])}"
        return STOPPED_AT_INPUT if self.stopped_at_input else ""

    def summary(self) -> str:
        line = self.result.summary()
        if self.label and self.problem and self.result.exit_code == 0:
            # A probe ran and found the problem: its own "exit 0" read as the command passing.
            return f"{self.label}: {self.problem}" + (f"; {self.note}" if self.note else "")
        if self.label:
            line = f"{self.label}: {line.rsplit(': ', 1)[-1]}"
        return line + "".join(f"; {why}" for why in (self.problem, self.note) if why)


def run_check(context: ToolContext, kind: str, target: str, *, expects_output: bool = False) -> Check:
    """Run a file or the tests in the sandbox and report it (used by tools and by the crew runner).

    `expects_output`: the request asks for something printed, so a file that runs without printing
    (a stub that only defines a function) fails instead of passing.
    """
    if kind == "tests":
        result = run_pytest(context.root, target, limits=context.limits)
        label = PROJECT_TESTS if target in (".", "") else f"pytest {target}"
        return _report(context, result, "", label)
    result = run_python(context.root, target, limits=context.limits)
    silent = expects_output and not result.stdout_tail.strip()
    at_input = _stopped_at_input(result)
    problem = NOTHING_PRINTED if silent and (result.exit_code == 0 or at_input) else ""
    return _report(context, result, problem, stopped_at_input=at_input)


# What a run of the project's tests is called in the chat and the end message: pytest's whole
# command line (its -p, -c, --rootdir and --confcutdir options) told the user nothing.
PROJECT_TESTS = "pytest (the project's tests)"


# The user's own suite is no generated snippet: it may need more than a program's 10 s, and a
# loaded machine slows pytest's start several-fold. (At 10 s the suite ran out of time before a
# run in CI; nothing was known of it, and a round that broke a passing test stayed on disk.)
SUITE_S = 120.0


def suite_limits(limits: RunLimits, before: TestResults | None) -> RunLimits:
    """The project's tests: SUITE_S before the run; after it, a few times what they took then."""
    if before is None or before.seconds <= 0:
        return replace(limits, wall_s=max(limits.wall_s, SUITE_S))
    return replace(limits, wall_s=max(limits.wall_s, min(SUITE_S, 3 * before.seconds + 10)))


def run_tests(context: ToolContext, before: TestResults | None) -> Check:
    """The project's tests, each test's outcome compared with `before` (the tests before the run;
    None: judged by the exit code alone, as a plain run). Tests that passed before and no longer
    run to their end (a hang, a crash of pytest) are broken by the run, as a failure would be."""
    result = run_pytest(context.root, ".", limits=suite_limits(context.limits, before), extra=("-rA",))
    now = TestResults.parse(result.stdout_tail) if before is not None else None
    if before is None:
        return _report(context, result, "", PROJECT_TESTS)
    if now is None or result.limit_hit is not None or result.exit_code not in (0, 1):
        if not before.passed or result.limit_hit == "stop":
            return _report(context, result, "", PROJECT_TESTS)
        ended = f"the {result.limit_hit} limit" if result.limit_hit else f"exit code {result.exit_code}"
        return _report(
            context, result, f"{REGRESSED}: the tests did not run to their end ({ended})", PROJECT_TESTS
        )
    found = verdict(before, now, context.facts)
    still = tuple(found.still_failing)
    if found.problem:
        return _report(context, result, found.problem, PROJECT_TESTS, still_failing=still)
    return _report(context, result, "", PROJECT_TESTS, excused=tuple(found.excused), still_failing=still)


def _stopped_at_input(result: RunResult) -> bool:
    """The program ended only because input() found no more input."""
    lines = result.stderr_tail.strip().splitlines()
    return (
        result.exit_code == 1
        and result.limit_hit is None
        and bool(lines)
        and lines[-1].startswith("EOFError")
        and "input(" in result.stderr_tail
    )


def run_written_checks(context: ToolContext, modules: list[str], checks: str) -> tuple[Check, CheckOutcome]:
    """Run the reviewer's assert lines against the modules, in the sandbox; each line on its own."""
    argv = [sys.executable, "-c", check_program(modules, checks)]
    result = run_command(context.root, argv, replace(context.limits, apply_back=False))
    outcome = read_outcome(result.stdout_tail) or CheckOutcome(0, checks.count("assert"), [])
    problem = "" if outcome.ok else f"{outcome.total - outcome.passed} of {outcome.total} checks failed"
    return _report(context, result, problem, command="written checks"), outcome


def _report(
    context: ToolContext,
    result: RunResult,
    problem: str,
    command: str = "",
    *,
    stopped_at_input: bool = False,
    excused: tuple[str, ...] = (),
    still_failing: tuple[str, ...] | None = None,
) -> Check:
    context.runs.append(result)
    check = Check(result, problem, command, stopped_at_input, excused, still_failing)
    context.bus.emit(
        CheckRun(
            # Not the summary cut at its first colon: "-p no:cacheprovider" showed as "-p no".
            command=check.label or result.command_text(),
            exit_code=result.exit_code,
            passed=check.passed,
            limit_hit=result.limit_hit,
            duration_s=result.duration_s,
            stdout_tail=preview(result.stdout_tail, 2000),
            stderr_tail=preview(result.stderr_tail, 2000),
            problem=check.problem,
            note=check.note,
            applied=list(result.applied),
            deleted=list(result.deleted),
            refused=list(result.refused),
        )
    )
    return check


# The folders of runs away from the workspace (a value asked of the sandbox, the trial copies).
_RUN_FOLDER = re.compile(re.escape(tempfile.gettempdir()) + r"/localcrew-[\w-]+/")


def workspace_relative(text: str, root: Path) -> str:
    """`text` (a run's output, a failed check) with the workspace's absolute path and the run
    folders' paths left out: a traceback then reads `File "ranking.py"`. The absolute path named a
    new temporary folder each run, so two runs of the same request prompted the coder differently
    and its sampled retries differed; it also costs tokens and says nothing to the model."""
    for folder in dict.fromkeys([str(root), str(root.resolve())]):
        text = re.sub(re.escape(folder) + r"(?![\w.-])", ".", text.replace(folder + "/", ""))
    return _RUN_FOLDER.sub("", text)


def describe_run(check: Check) -> str:
    result = check.result
    parts = [check.summary()]
    if result.stdout_tail.strip():
        parts.append("stdout:\n" + result.stdout_tail[-1500:])
    if result.stderr_tail.strip():
        parts.append("stderr:\n" + result.stderr_tail[-1500:])
    return "\n".join(parts)


class _EventTool(BaseTool):
    """Times the call and reports it; subclasses implement `_do` and may raise user errors."""

    _context: ToolContext = PrivateAttr()

    def bind(self, context: ToolContext) -> _EventTool:
        self._context = context
        return self

    def _run(self, **arguments: Any) -> str:
        bus = self._context.bus
        call: dict[str, Any] = {  # the same on the call's three events
            "call_id": uuid.uuid4().hex[:12],
            "agent": self._context.agent,
            "name": self.name,
            "arguments": arguments,
        }
        bus.emit(ToolCallStarted(**call))
        started = time.perf_counter()
        try:
            result = self._do(**arguments)
        except (WorkspaceError, ValueError, OSError, TypeError) as exc:
            bus.emit(ToolCallFailed(**call, error=str(exc), duration_s=time.perf_counter() - started))
            return f"Error: {exc}"
        bus.emit(ToolCallFinished(**call, result=preview(result), duration_s=time.perf_counter() - started))
        return result[:OBSERVATION_CHARS]

    def _do(self, **arguments: Any) -> str:
        raise NotImplementedError


# A relative path of up to three plain segments. The pattern goes into the tool-call grammar, so
# even a tiny model cannot produce an absolute path, a space or a leading ".." (the workspace
# check would refuse them anyway, but the model would waste its turn).
RELATIVE_PATH = r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,40}(/[A-Za-z0-9_][A-Za-z0-9_.-]{0,40}){0,2}$"


class WriteArgs(BaseModel):
    path: str = Field(
        description="file path relative to the project folder, e.g. main.py", pattern=RELATIVE_PATH
    )
    content: str = Field(description="the whole new content of the file", min_length=1)


class WriteFileTool(_EventTool):
    name: str = "write_file"
    description: str = "Write the whole content of a file (creates or replaces it)."
    args_schema: type[BaseModel] = WriteArgs

    def _do(self, path: str, content: str) -> str:
        if not content.strip():
            raise ValueError(f"refusing to write an empty {path}: give the whole file content")
        context = self._context
        draft = WriteDraft(path, content, self._original(path), context.facts, lambda: self._current(path))
        draft.sources = lambda: python_sources(context.files)
        write_rules(draft, context.rules)  # each rule may refuse (ValueError) or change the write
        if draft.as_it_was:
            return f"left {path} as it was (the answer repeats it)"
        content = draft.content
        written = context.files.write_text(path, content if content.endswith("\n") else content + "\n")
        context.written.append(written.rel)
        if written.created and draft.original is None:
            context.created.add(written.rel)
        context.bus.emit(FileChanged(path=written.rel, action=written.action, diff=written.diff()))
        how = "".join(f", {note}" for note in draft.notes)
        return f"{written.action} {written.rel} ({written.bytes_written} bytes{how})"

    def _current(self, path: str) -> str | None:
        try:
            return self._context.files.read_text(path)
        except (WorkspaceError, ValueError, OSError):  # a new file, or not text
            return None

    def _original(self, path: str) -> str | None:
        """The file as it was before the run (None: new, unreadable or too large to compare)."""
        files, originals = self._context.files, self._context.originals
        if path not in originals:
            try:
                originals[path] = files.read_text(path) if files.resolve(path).is_file() else None
            except (WorkspaceError, OSError):  # the snapshot keeps it anyway
                originals[path] = None
        return originals[path]
