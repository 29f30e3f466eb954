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
from typing import Any, Literal

from crewai.tools import BaseTool
from pydantic import BaseModel, Field, PrivateAttr, create_model

from agents.definition_merge import Merge, merge_definitions
from agents.edit_guard import asks_to_change, lost_definitions, removable_names, renames
from agents.events import (
    CheckRun,
    EventBus,
    FileChanged,
    ToolCallFailed,
    ToolCallFinished,
    ToolCallStarted,
    preview,
)
from agents.example_usage import guard_example_usage
from agents.roles import asks_for_output
from agents.stray_methods import into_class
from agents.untouched_text import keep_untouched
from agents.written_checks import CheckOutcome, check_program, read_outcome
from tools.sandbox import RunLimits, RunResult, run_command, run_pytest, run_python
from tools.workspace_files import WorkspaceError, WorkspaceFiles

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

    @property
    def passed(self) -> bool:
        ran = self.result.exit_code == 0 or self.stopped_at_input
        return ran and self.result.limit_hit is None and not self.problem

    @property
    def note(self) -> str:
        return STOPPED_AT_INPUT if self.stopped_at_input else ""

    def summary(self) -> str:
        line = self.result.summary()
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
    else:
        result = run_python(context.root, target, limits=context.limits)
    silent = kind == "python" and expects_output and not result.stdout_tail.strip()
    at_input = kind == "python" and _stopped_at_input(result)
    problem = NOTHING_PRINTED if silent and (result.exit_code == 0 or at_input) else ""
    return _report(context, result, problem, stopped_at_input=at_input)


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
) -> Check:
    context.runs.append(result)
    check = Check(result, problem, command, stopped_at_input)
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
        if self._data_as_it_was(path, content):
            return f"left {path} as it was (the answer repeats it)"
        content, merged = self._keep_definitions(path, content)
        guarded = False
        if merged is None:
            content = self._keep_untouched(path, content)
            if path.endswith(".py") and (old := self._original(path)) is not None:
                content, guarded = guard_example_usage(old, content, self._context.request)
        moved: list[str] = []
        if path.endswith(".py"):
            content, moved = into_class(content, self._original(path))
        written = self._context.files.write_text(path, content if content.endswith("\n") else content + "\n")
        self._context.written.append(written.rel)
        self._context.bus.emit(FileChanged(path=written.rel, action=written.action, diff=written.diff()))
        how = f", edited in place: {merged.summary()}" if merged else ""
        how += ', example code at its end put under if __name__ == "__main__"' if guarded else ""
        how += f", {', '.join(moved)} moved into its class from the top level" if moved else ""
        return f"{written.action} {written.rel} ({written.bytes_written} bytes{how})"

    def _original(self, path: str) -> str | None:
        """The file as it was before the run (None: new, unreadable or too large to compare)."""
        files, originals = self._context.files, self._context.originals
        if path not in originals:
            try:
                originals[path] = files.read_text(path) if files.resolve(path).is_file() else None
            except (WorkspaceError, OSError):  # the snapshot keeps it anyway
                originals[path] = None
        return originals[path]

    def _data_as_it_was(self, path: str, content: str) -> bool:
        """True for an existing data file the answer repeats; raises for one it changes unasked.

        Shown the project's files, the 1.5B wrote config.json back with its code: the same bytes
        that time, but a small model's copy of a data file can drop or invent rows."""
        if path.endswith(".py") or (old := self._original(path)) is None:
            return False
        if content.rstrip("\n") == old.rstrip("\n"):
            return True
        if asks_to_change(self._context.request, path):
            return False
        raise ValueError(
            f"not written: {path} holds the user's data, and the request does not ask to change it."
            " Leave it out of your answer; write only the code."
        )

    def _keep_untouched(self, path: str, content: str) -> str:
        """A whole-file answer keeps the file's blank lines and docstring (agents.untouched_text)."""
        if not path.endswith(".py"):
            return content
        try:
            current = self._context.files.read_text(path)
        except (ValueError, OSError):  # a new file, or not text: nothing to keep
            return content
        return keep_untouched(current, content, self._context.request)

    def _keep_definitions(self, path: str, content: str) -> tuple[str, Merge | None]:
        """The content to write: as given, or, when it leaves out definitions the file has and the
        request does not drop, the given definitions applied to the file in place. Raises when
        neither keeps the user's definitions."""
        if not path.endswith(".py") or (old := self._original(path)) is None:
            return content, None
        request = self._context.request
        lost = lost_definitions(old, content, request)
        if not lost:
            return content, None
        try:
            current = self._context.files.read_text(path)
        except (WorkspaceError, OSError):
            current = old
        merged = merge_definitions(
            current, content, removable_names(request), keep_statements=asks_for_output(request)
        )
        if merged is not None and not lost_definitions(old, merged.text, request):
            return merged.text, merged
        names = ", ".join(lost[:8])
        raise ValueError(
            f"not written: this would delete {names} from {path}, and the request does not ask for"
            f" that.{_renamed_in_place(lost, request)} Write only the functions you change, as valid"
            " Python, or the whole file with every existing function and class kept."
        )


def _renamed_in_place(lost: list[str], request: str) -> str:
    """The hint for a renamed definition that did not stay where it was."""
    renamed = renames(request)
    hints = []
    for name in lost:
        *owner, last = name.split(".")
        if last in renamed:
            place = f"in class {'.'.join(owner)}" if owner else "at the top level of the file"
            hints.append(f" Renamed, {last} stays where it was, {place}: define {renamed[last]} there.")
    return "".join(hints)


def expected_files_schema(files: list[str]) -> type[BaseModel]:
    """write_file arguments whose path must be one of these files (the grammar then enforces it)."""
    return create_model(
        "WriteExpectedArgs",
        path=(Literal[tuple(files)], Field(description="one of the files the plan names")),
        content=(str, Field(description="the whole new content of the file", min_length=1)),
    )
