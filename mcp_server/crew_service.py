"""What the MCP tools do, apart from the protocol: one workspace, one model, one crew run at a time.

`ask` runs the crew as `app.py ask` does (agents.headless): the same workspace rules, the same crew
(build_crew with the code index), so the same sandbox and the same snapshot before the run that
`undo` restores. The model loads on the first `ask` and stays loaded for the next ones.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.workspace_choice import workspace_problem

OnLine = Callable[[str], None]
MAX_DIFF_CHARS = 60_000  # a client shows the diff to a model: a huge one would fill its context


class ToolInputError(ValueError):
    """The caller's input cannot be used (app.py ask would exit 2)."""


class CrewBusyError(RuntimeError):
    """A crew run is going on; undo must wait for it to end."""


@dataclass
class AskOutcome:
    """What an `ask` returns: the run's summary, the files it changed and their diff."""

    completed: bool  # false: an infrastructure error ended the run (app.py ask exits 1)
    message: str
    run_id: str = ""
    approved: bool = False
    checks_passed: bool = False
    rounds_used: int = 0
    files_changed: list[str] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)
    diff: str = ""
    duration_s: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        from dataclasses import asdict

        return asdict(self)

    def text(self) -> str:
        """The summary as `app.py ask` prints it, then the diff."""
        files = ", ".join(self.files_changed) or "none"
        checks = "; ".join(self.checks) or "none"
        lines = [
            self.message,
            f"files changed: {files}",
            f"checks: {checks}",
            f"approved: {self.approved}, checks passed: {self.checks_passed} "
            f"({self.rounds_used} round(s), {self.duration_s:.1f}s)",
        ]
        if self.files_changed:
            lines.append("The undo tool puts these files back as they were before this run.")
        return "\n".join(lines) + (f"\n\n{self.diff}" if self.diff else "")


def check_workspace(workspace: Path) -> Path:
    """The workspace as `app.py ask` accepts it, resolved; ToolInputError says why not."""
    workspace = workspace.expanduser()
    if not workspace.is_dir():
        raise ToolInputError(f"workspace {workspace} is not a folder")
    problem = workspace_problem(workspace)
    if problem:
        raise ToolInputError(problem)
    return workspace.resolve()


class CrewService:
    """The tools' state: the workspace, the loaded engine, the open code index, the run lock."""

    def __init__(
        self, workspace: Path, engine_factory: Callable[[], Any], *, rounds: int = 3, model_label: str = ""
    ) -> None:
        self.workspace = check_workspace(workspace)
        self.rounds = max(1, rounds)
        self.model_label = model_label  # what `ask` will run on, before it is loaded
        self._engine_factory = engine_factory
        self._engine: Any = None
        self._index: Any = None
        self._run_lock = threading.Lock()  # one crew run at a time: one model, one workspace
        self._index_lock = threading.Lock()

    # -- ask ---------------------------------------------------------------------------------
    def ask(
        self, request: str, rounds: int | None, on_line: OnLine, cancel: threading.Event | None = None
    ) -> AskOutcome:
        """Run the crew on `request`; each event's line (as `app.py ask` prints it) goes to on_line."""
        if not request.strip():
            raise ToolInputError("the request is empty")
        check_workspace(self.workspace)  # it may have gone since the server started
        with self._run_lock:
            return self._run(request, max(1, rounds or self.rounds), on_line, cancel)

    def _run(self, request: str, rounds: int, on_line: OnLine, cancel: threading.Event | None) -> AskOutcome:
        from agents.crew_factory import build_crew
        from agents.events import EventBus, TokenChunk
        from agents.headless import format_event
        from agents.run.runner import CrewSettings

        try:
            engine = self._loaded_engine(on_line)
        except Exception as exc:  # noqa: BLE001 - any load failure is this call's answer, not a crash
            return AskOutcome(completed=False, message=f"The model could not be loaded: {exc}")
        bus = EventBus()

        def show(event: object) -> None:
            line = None if isinstance(event, TokenChunk) else format_event(event)  # type: ignore[arg-type]
            if line:
                on_line(line)

        bus.subscribe(show)
        crew = build_crew(
            engine,
            self.workspace,
            bus,
            CrewSettings(rounds=rounds),
            use_index=True,
            index_opener=self._open_index,  # the one `search` uses: one embedding model in memory
            cancel=cancel,
        )
        summary = crew.run(request)
        outcome = AskOutcome(
            completed=summary.completed,
            message=summary.message,
            run_id=summary.run_id,
            approved=summary.approved,
            checks_passed=summary.checks_passed,
            rounds_used=summary.rounds_used,
            files_changed=list(summary.files_changed),
            checks=list(summary.checks),
            duration_s=summary.duration_s,
        )
        outcome.diff = self._run_diff(summary.run_id)
        return outcome

    def _loaded_engine(self, on_line: OnLine) -> Any:
        if self._engine is None:
            engine = self._engine_factory()
            engine.load(on_message=on_line)
            self._engine = engine
        return self._engine

    def _run_diff(self, run_id: str) -> str:
        from tools.run_snapshot import RunSnapshots, SnapshotError

        try:
            info, diff = RunSnapshots(self.workspace).last_run_diff()
        except (SnapshotError, OSError) as exc:
            return f"(the diff could not be read: {exc})"
        if info is None or info.id != run_id:  # this run left no snapshot of its own
            return ""
        if len(diff) > MAX_DIFF_CHARS:
            diff = diff[:MAX_DIFF_CHARS] + f"\n… (diff cut at {MAX_DIFF_CHARS} characters)\n"
        return diff

    # -- undo --------------------------------------------------------------------------------
    def undo(self) -> str:
        """Undo the last crew run as `app.py undo` does; the line it prints."""
        from tools.run_snapshot import NothingToUndoError, RunSnapshots

        if not self._run_lock.acquire(blocking=False):
            raise CrewBusyError("a crew run is going on: undo after it ends")
        try:
            return RunSnapshots(check_workspace(self.workspace)).undo().summary()
        except NothingToUndoError as exc:
            return f"Nothing to undo: {exc}"
        finally:
            self._run_lock.release()

    # -- search ------------------------------------------------------------------------------
    def _open_index(self) -> Any:
        with self._index_lock:
            if self._index is None:
                from tools.code_index import CodeIndex

                self._index = CodeIndex(self.workspace)
            return self._index

    def search(self, query: str, k: int = 8, path_glob: str | None = None, mode: str = "hybrid") -> dict:
        """`app.py search`: refresh the index, then the best hits; text search where it cannot open."""
        from tools.code_index.hybrid_search import MODES

        if not query.strip():
            raise ToolInputError("the query is empty")
        if mode not in MODES:
            raise ToolInputError(f"mode must be one of {', '.join(MODES)}")
        k = max(1, min(k, 50))
        try:
            index = self._open_index()
            report = index.update()
            hits, note = index.search(query, k=k, path_glob=path_glob, mode=mode), report.note
        except Exception as exc:  # noqa: BLE001 - no embedding model or no writable place: fall back
            from tools.text_search import search_text
            from tools.workspace_files import WorkspaceFiles

            hits = search_text(WorkspaceFiles(self.workspace), query, k=k)
            note, mode = f"plain text search: the code index could not be used ({exc})", "text"
        return {"query": query, "mode": mode, "note": note or "", "hits": [hit.to_dict() for hit in hits]}

    # -- models ------------------------------------------------------------------------------
    def models(self) -> dict[str, Any]:
        """The catalog (`app.py models`), which models are installed, and what `ask` runs on."""
        from models.catalog import CATALOG
        from models.model_cache import cached_model_path

        loaded = getattr(self._engine, "model_path", None)
        rows = []
        for entry in CATALOG:
            path = cached_model_path(entry)
            rows.append(
                {
                    "id": entry.id,
                    "title": entry.title,
                    "size_gb": round(entry.size_bytes / 1e9, 2),
                    "context_length": entry.context_length,
                    "license": entry.license,
                    "note": entry.note,
                    "installed": path is not None,
                    "loaded": bool(path and loaded and Path(path).name == Path(loaded).name),
                }
            )
        in_use = str(loaded) if loaded else f"{self.model_label} (loads on the first ask)"
        return {"in_use": in_use, "models": rows}
