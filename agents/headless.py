"""Headless use: `python app.py ask "REQUEST" --workspace DIR` and `python app.py undo --workspace DIR`.

Exit codes: 0 the run completed (approved or rounds used up); 1 an infrastructure error ended it
(the reason is printed); 2 bad input (empty request, missing workspace).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from agents.events import (
    AgentFinished,
    AgentStarted,
    CheckRun,
    ContextRetrieved,
    Event,
    EventBus,
    FileChanged,
    Notice,
    ReviewVerdict,
    RunFinished,
    RunStarted,
    TokenChunk,
    ToolCallFailed,
    ToolCallFinished,
    ToolCallStarted,
)
from tools.workspace_choice import workspace_problem

if TYPE_CHECKING:
    from agents.run.runner import CrewSettings

EXIT_OK, EXIT_INFRA, EXIT_USAGE = 0, 1, 2


def format_event(event: Event) -> str | None:
    """One readable line per event (tokens are not printed line by line)."""
    match event:
        case RunStarted():
            return f"▶ run {event.run_id} in {event.workspace} ({event.rounds} round(s) at most)"
        case ContextRetrieved():
            where = ", ".join(hit.location for hit in event.chunks) or "none"
            return f"  context ({event.source}): {where}"
        case AgentStarted():
            return f"● {event.agent}" + (f" (round {event.round})" if event.round else "")
        case AgentFinished():
            return f"  {event.agent} done in {event.duration_s:.1f}s"
        case ToolCallStarted():
            return (
                f"  → {event.name}({', '.join(f'{k}={str(v)[:40]!r}' for k, v in event.arguments.items())})"
            )
        case ToolCallFinished():
            first_line = event.result.splitlines()[0] if event.result else ""
            return f"  ✓ {event.name}: {first_line} ({event.duration_s:.2f}s)"
        case ToolCallFailed():
            return f"  ✗ {event.name}: {event.error}"
        case FileChanged():
            return f"  ✎ {event.action} {event.path}"
        case CheckRun():
            why = event.problem or f"exit {event.exit_code}, limit {event.limit_hit}"
            state = "passed" if event.passed else f"failed ({why})"
            return f"  ⚙ {event.command}: {state} in {event.duration_s:.2f}s"
        case ReviewVerdict():
            # The round's verdict is its checks' (the reviewer's asserts are some of them, when it ran).
            verdict = "every check passed" if event.approved else "not yet"
            return f"  ☑ round {event.round}: {verdict}" + "".join(f"\n     - {fix}" for fix in event.fixes)
        case Notice():
            return f"  [{event.level}] {event.message}"
        case RunFinished():
            files = ", ".join(event.files_changed) or "none"
            checks = "; ".join(event.checks) or "none"
            return (
                f"■ {event.message}\n  files changed: {files}\n  checks: {checks}\n"
                f"  approved: {event.approved}, checks passed: {event.checks_passed}"
                f"  ({event.duration_s:.1f}s)"
            )
    return None


def _printer(stream: TextIO, as_json: bool) -> callable:
    def show(event: Event) -> None:
        if as_json:
            stream.write(json.dumps(event.to_dict(), default=str) + "\n")
        elif not isinstance(event, TokenChunk):
            line = format_event(event)
            if line:
                stream.write(line + "\n")
        stream.flush()

    return show


def usage_problem(request: str, workspace: Path) -> str:
    """What is wrong with the command's own input ('' if nothing), told before any model or crew
    is loaded: `ask ""` answered only after importing CrewAI, seconds later."""
    if not request.strip():
        return "the request is empty"
    folder = workspace.expanduser()
    if not folder.is_dir():
        return f"workspace {folder} is not a folder"
    return workspace_problem(folder) or ""


def run_ask(
    request: str,
    workspace: Path,
    *,
    engine_factory: callable,
    as_json: bool,
    crew: CrewSettings | None = None,
    reviewer_factory: callable | None = None,
) -> int:
    """Run the crew once on `request` (`crew`: its settings, e.g. a profile's; None: the defaults);
    `reviewer_factory`: a second model for the reviewer's turns."""
    from agents.crew_factory import build_crew
    from agents.run.runner import CrewSettings
    from models.chat_engine import EngineError

    problem = usage_problem(request, workspace)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    workspace = workspace.expanduser()
    try:
        engine = engine_factory()
        engine.load()
        reviewer = reviewer_factory() if reviewer_factory is not None else None
        if reviewer is not None:
            reviewer.load()
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_INFRA
    bus = EventBus()
    bus.subscribe(_printer(sys.stdout, as_json))
    runner = build_crew(
        engine, workspace, bus, crew or CrewSettings(), use_index=True, reviewer_engine=reviewer
    )
    summary = runner.run(request)
    if not summary.completed:
        print(f"error: {summary.message}", file=sys.stderr)
        return EXIT_INFRA
    return EXIT_OK


def run_undo(workspace: Path) -> int:
    from tools.run_snapshot import NothingToUndoError, RunSnapshots, SnapshotError

    workspace = workspace.expanduser()
    if not workspace.is_dir():
        print(f"error: workspace {workspace} is not a folder", file=sys.stderr)
        return EXIT_USAGE
    try:
        result = RunSnapshots(workspace).undo()
    except NothingToUndoError as exc:
        print(f"Nothing to undo: {exc}")
        return EXIT_OK
    except SnapshotError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_INFRA
    print(result.summary())
    return EXIT_OK
