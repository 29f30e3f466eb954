"""Where the crew's code context comes from: the workspace's LanceDB index, or plain text search.

The index is tried first (it re-scans the workspace cheaply before each request); if it cannot be
used (no embedding model, a broken index), the crew says so and falls back to text search rather
than working blind.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from agents.crew_runner import Retriever, text_search_retriever
from tools.workspace_files import WorkspaceFiles

CHARS_PER_TOKEN = 4


def index_retriever(
    workspace: Path, token_budget: int = 400, opener: Callable[[], Any] | None = None
) -> tuple[Retriever, Any]:
    """A retriever over the code index, and a `search_code` backend sharing the same index.

    `opener` returns an already opened CodeIndex (the GUI opens it in the background at start-up).
    """
    from tools.code_index import CodeIndex, retrieve_context

    fallback = text_search_retriever(WorkspaceFiles(workspace), token_budget * CHARS_PER_TOKEN)
    state: dict[str, Any] = {}

    def open_index() -> Any:
        if "index" not in state:
            try:
                state["index"] = opener() if opener else CodeIndex(workspace)
            except Exception as exc:  # noqa: BLE001 - no model or no writable place: fall back
                state["index"] = None
                state["error"] = str(exc)
        return state["index"]

    def retrieve(request: str) -> tuple[str, list[dict[str, Any]], str]:
        index = open_index()
        if index is None:
            source, chunks, text = fallback(request)
            return f"text search (index unavailable: {state['error']})", chunks, text
        context = retrieve_context(index, request, token_budget=token_budget)
        if context.error:
            source, chunks, text = fallback(request)
            return f"text search (index failed: {context.error})", chunks, text
        return "index", [hit.to_dict() for hit in context.hits], context.as_prompt_text()

    def search(query: str, k: int) -> list[dict[str, Any]]:
        index = open_index()
        if index is None:
            return []
        return [hit.to_dict() for hit in index.search(query, k=k)]

    return retrieve, search
