"""Where the crew's code context comes from: the workspace's LanceDB index, or plain text search.

Everything the crew retrieves lives here: the `Retriever` that gives the planner and coder their
context. It hands back `tools.search_hit.Hit`, the same type the page shows.

The index is tried first (it re-scans the workspace cheaply before each request); if it cannot be
used (no embedding model, a broken index), the crew says so and falls back to text search rather
than working blind.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tools.search_hit import Hit
from tools.text_search import search_text
from tools.workspace_files import WorkspaceFiles

Retriever = Callable[[str], tuple[str, list[Hit], str]]  # request -> (source, hits, prompt text)


def text_search_retriever(files: WorkspaceFiles, budget_chars: int) -> Retriever:
    """Context from plain text search: the five best windows, as many as fit `budget_chars`."""

    def retrieve(request: str) -> tuple[str, list[Hit], str]:
        hits = search_text(files, request, k=5)
        return "text search", hits, _context_text(hits, budget_chars)

    return retrieve


def _context_text(hits: list[Hit], budget_chars: int) -> str:
    # As the index shows a hit: a heading and a fenced block. Under a bare `# stats.py:1-3` line
    # the 1.5B began its own new file with `# guess.py:1-3`, and put more such lines inside it.
    from tools.code_index.context import format_hit

    parts, used = [], 0
    for hit in hits:
        block = format_hit(hit, with_score=False)
        if used + len(block) > budget_chars:
            break
        parts.append(block)
        used += len(block)
    return "\n".join(parts)


def index_retriever(
    workspace: Path, token_budget: int = 400, opener: Callable[[], Any] | None = None
) -> Retriever:
    """A retriever over the code index, falling back to text search.

    `opener` returns an already opened CodeIndex (the GUI opens it in the background at start-up).
    """
    from tools.code_index import CodeIndex, retrieve_context
    from tools.code_index.context import CHARS_PER_TOKEN

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

    def retrieve(request: str) -> tuple[str, list[Hit], str]:
        index = open_index()
        if index is None:
            source, hits, text = fallback(request)
            return f"text search (index unavailable: {state['error']})", hits, text
        context = retrieve_context(index, request, token_budget=token_budget)
        if context.error:
            source, hits, text = fallback(request)
            return f"text search (index failed: {context.error})", hits, text
        return "index", context.hits, context.as_prompt_text()

    return retrieve
