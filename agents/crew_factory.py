"""The one place a crew is assembled, for the IDE, `app.py ask` and the benchmarks, on any engine
(models.chat_engine.ChatEngine: llama.cpp in process, an OpenAI-compatible server, a test's script).

What differs between them is said here by arguments, not by three copies of the assembly: whether
context comes from the code index (the IDE and `ask`) or from plain text search (the benchmarks'
throwaway workspaces, which are not worth indexing), and who may stop the run.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agents.events import EventBus
from agents.run.runner import CrewRunner, CrewSettings
from models.chat_engine import ChatEngine


def build_crew(
    engine: ChatEngine,
    workspace: Path,
    bus: EventBus,
    settings: CrewSettings | None = None,
    *,
    use_index: bool = False,
    index_opener: Callable[[], Any] | None = None,
    cancel: threading.Event | None = None,
    reviewer_engine: ChatEngine | None = None,
) -> CrewRunner:
    """A crew for one workspace. `use_index`: context from the workspace's code index (falling back
    to text search when it cannot be used); `index_opener`: an index already opened elsewhere (the
    IDE opens it in the background at start-up). `cancel`: set to stop the run. `reviewer_engine`:
    a second model for the reviewer's turns (`--reviewer-model`); None: the coder's model reviews."""
    retriever = None  # the runner's own: text search
    if use_index or index_opener is not None:
        from agents.context_retrieval import index_retriever

        retriever = index_retriever(Path(workspace), opener=index_opener)
    return CrewRunner(
        engine,  # type: ignore[arg-type]  # the runner reads only the ChatEngine surface
        Path(workspace),
        bus,
        settings or CrewSettings(),
        retriever=retriever,
        cancel=cancel,
        reviewer_engine=reviewer_engine,
    )
