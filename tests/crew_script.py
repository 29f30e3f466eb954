"""A scripted crew run with chosen rules switched off: the per-rule tests' one entry."""

from __future__ import annotations

from pathlib import Path

from agents.events import Event, EventBus, Notice, TokenChunk
from agents.rules.registry import RuleSwitches
from agents.run.runner import CrewRunner, CrewSettings, RunSummary
from tests.scripted_engine import ScriptedEngine, by_agent
from tools.sandbox import RunLimits

FENCE = "```"


def files(*pairs: tuple[str, str]) -> str:
    """A coder reply: each file's path on its own line, then its content in a python block."""
    return "\n".join(f"{path}\n{FENCE}python\n{content}{FENCE}\n" for path, content in pairs)


def checks(*lines: str) -> str:
    return f"{FENCE}python\n" + "\n".join(lines) + f"\n{FENCE}"


def crew(
    workspace: Path,
    request: str,
    *,
    coder: list[str],
    reviewer: list[str] = (),  # type: ignore[assignment]
    planner: list[str] = (),  # type: ignore[assignment]
    rounds: int = 1,
    without: frozenset[str] = frozenset(),
    with_: frozenset[str] = frozenset(),
    retry: str = "fresh",
    time_budget_s: float = 0.0,
) -> tuple[RunSummary, EventBus, ScriptedEngine]:
    engine = ScriptedEngine(by_agent(coder=list(coder), reviewer=list(reviewer), planner=list(planner)))
    bus = EventBus()
    # A deadline for hangs, not speed: a loaded machine runs pytest in the sandbox for seconds.
    limits = RunLimits(wall_s=120.0)
    settings = CrewSettings(
        rounds=rounds,
        retry=retry,
        rules=RuleSwitches(without, with_),
        limits=limits,
        time_budget_s=time_budget_s,
    )
    # A follow-up is a second call on the same workspace: the runner reads the last run from disk.
    summary = CrewRunner(engine, workspace, bus, settings).run(request)
    return summary, bus, engine


def notices(bus: EventBus) -> list[str]:
    return [e.message for e in bus.history if isinstance(e, Notice)]


def events(bus: EventBus, kind: type[Event] = Event) -> list:
    return [e for e in bus.history if isinstance(e, kind) and not isinstance(e, TokenChunk)]
