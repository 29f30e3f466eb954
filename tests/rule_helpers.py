"""Small helpers for the per-rule tests: one write through the real write tool, one static scan,
each with chosen rules switched off."""

from __future__ import annotations

from pathlib import Path

import agents.llm.crewai_setup  # noqa: F401
from agents.events import EventBus
from agents.request import RequestFacts
from agents.rules.registry import switches
from agents.rules.static.scan import StaticScan
from agents.rules.static.stage import static_problems
from agents.run.crew_tools import ToolContext, WriteFileTool
from tools.sandbox import RunLimits
from tools.workspace_files import WorkspaceFiles


def write_with(
    root: Path, path: str, content: str, request: str, without: frozenset[str] = frozenset()
) -> tuple[str, str | None]:
    """Writes `content` to `path` as the crew would; returns the tool's answer and the file after."""
    context = ToolContext(
        WorkspaceFiles(root), EventBus(), RunLimits(wall_s=5.0), request=request, rules=switches(without)
    )
    answer = WriteFileTool().bind(context).run(path=path, content=content)
    target = root / path
    return answer, target.read_text() if target.exists() else None


def scan_with(
    request: str,
    sources: dict[str, str],
    *,
    written: list[str] | None = None,
    originals: dict[str, str | None] | None = None,
    echoed: list[str] | None = None,
    without: frozenset[str] = frozenset(),
) -> list[str]:
    """The static problems of an answer that wrote `written` (default: every source)."""
    scan = StaticScan(
        facts=RequestFacts.read(request),
        originals=originals or {},
        written=list(sources) if written is None else written,
        sources=sources,
        echoed=echoed or [],
        exists=lambda rel: rel in sources,
    )
    return static_problems(scan, switches(without))
