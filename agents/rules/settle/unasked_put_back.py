"""Putting back, as they were before the run, the functions a run changed unasked
(agents/rules/settle/unasked_changes finds them), each only where a trial away from the workspace shows the
checks allow it. Two kinds of trial: the reviewer's asserts run beside the project's modules, or
the project's own tests run on a copy of the project (a follow-up asked to fix median() also
rewrote mean() and spread(); the project's tests were the checks and nothing put them back).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.request import RequestFacts
from agents.rules.rule import Stage, rule
from agents.rules.settle.check_disputes import write_beside
from agents.rules.settle.unasked_changes import put_back, unasked_changes, unasked_method_changes
from agents.run.crew_tools import ToolContext, WriteFileTool
from agents.run.tests_before import TestResults
from agents.source.project_texts import ProjectTexts
from agents.source.used_names import names_used_in
from tools.sandbox import RunLimits, run_pytest

MOST_FILES = 300  # a larger project is not copied for a trial: nothing is put back there


@dataclass(frozen=True)
class Trial:
    """How one version of the project is judged, and when a put-back version is acceptable."""

    run: Callable[[dict[str, str]], Any | None]  # the outcome on these files; None: could not tell
    accept: Callable[[Any, Any | None], bool]  # (outcome put back, outcome with the change)
    needs_now: bool  # accept() compares with the outcome of the files as the run left them
    why: str  # the end of the notice: "..., and <why>"


@rule(
    "put_back_unasked",
    Stage.SETTLE,
    reason="functions and methods the run changed unasked are put back where checks allow",
    evidence="bench/results/2026-11-26-crew-1.5b-put-back",
)
def put_back_where_allowed(
    context: ToolContext,
    texts: ProjectTexts,
    facts: RequestFacts,
    beside: Callable[[], dict[str, str]],
    trial: Trial,
) -> list[str]:
    """Write each changed file back with the unasked functions the trial allows put back; returns
    the notices to show. `beside`: the files a trial runs beside (read once, when needed)."""
    written = texts.small(texts.python_written(context.written))
    uses = {path: names_used_in(text) for path, text in written.items()}
    folder: dict[str, str] | None = None
    said = []
    for path, text in written.items():
        original = context.originals.get(path)
        if not original:
            continue
        elsewhere = set().union(*(names for other, names in uses.items() if other != path))
        kept, names, now = text, [], None
        unasked = unasked_changes(original, text, facts, elsewhere)
        for name in unasked + unasked_method_changes(original, text, facts, elsewhere):
            candidate = put_back(kept, original, name)
            if candidate is None:
                continue
            folder = {**beside(), **written} if folder is None else folder
            if trial.needs_now and now is None:
                now = trial.run({**folder, path: kept})
                if now is None:
                    break
            outcome = trial.run({**folder, path: candidate})
            if outcome is not None and trial.accept(outcome, now):
                kept, names, now = candidate, names + [name], outcome
        if names and _write(context, path, kept):
            one = len(names) == 1
            said.append(
                f"Put back {', '.join(names)} in {path} as {'it was' if one else 'they were'}: the"
                f" request does not name {'it' if one else 'them'}, and {trial.why}"
            )
    return said


def tests_trial(texts: ProjectTexts, limits: RunLimits) -> tuple[Trial, Callable[[], dict[str, str]]]:
    """The project's own tests (pytest) on a copy of its small text files: a version is accepted
    when every test that passed with the change still passes."""

    def run(files: dict[str, str]) -> TestResults | None:
        return tests_on_copy(files, limits)

    def accept(outcome: TestResults, now: TestResults | None) -> bool:
        return now is not None and bool(now.passed) and now.passed <= outcome.passed

    def beside() -> dict[str, str]:
        names = texts.files.list_files()
        return texts.small(names) if len(names) <= MOST_FILES else {}

    why = "every test of the project that passed with the change passes without it."
    return Trial(run, accept, needs_now=True, why=why), beside


def tests_on_copy(files: dict[str, str], limits: RunLimits) -> TestResults | None:
    """Each test's outcome (pytest -rA) in a folder holding only `files`, never the workspace."""
    if not files:
        return None
    with tempfile.TemporaryDirectory(prefix="localcrew-tests-") as folder:
        write_beside(Path(folder), files)
        result = run_pytest(Path(folder), ".", limits=limits, extra=("-rA",))
    if result.limit_hit is not None or result.exit_code not in (0, 1):
        return None
    return TestResults.parse(result.stdout_tail)


def _write(context: ToolContext, path: str, text: str) -> bool:
    context.agent = "crew"
    return not WriteFileTool().bind(context).run(path=path, content=text).startswith("Error")
