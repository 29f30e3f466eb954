"""What retrieval hands to the planner: the hits that fit a token budget, as prompt text.

``retrieve_context`` returns data only (no events): the crew emits ``RetrievedContext.to_dict()``
as its "retrieved context" event, and ``as_prompt_text()`` is exactly the text the planner gets,
so the GUI can show what the model saw, with scores.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .hybrid_search import Hit

if TYPE_CHECKING:
    from .indexer import CodeIndex

log = logging.getLogger(__name__)

CHARS_PER_TOKEN = 4
MIN_PARTIAL_TOKENS = 48  # a hit cut shorter than this is left out instead
CONTEXT_INTRO = "Code from the workspace that may be relevant to the request (best match first):"


def context_tokens(text: str) -> int:
    """Rough token count: ~4 characters per token."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def format_hit(hit: Hit, with_score: bool = True) -> str:
    """One hit as a Markdown block: location, symbol, score, fenced code."""
    head = f"### {hit.path} lines {hit.start_line}-{hit.end_line}"
    if hit.symbol:
        head += f" ({hit.symbol})"
    if with_score:
        head += f" score {hit.score:.4f}"
    fence = "````" if "```" in hit.snippet else "```"
    lang = hit.language if hit.language not in ("text", "") else ""
    return f"{head}\n{fence}{lang}\n{hit.snippet}\n{fence}"


@dataclass(slots=True)
class RetrievedContext:
    """The hits that fit the token budget, in rank order, and the prompt text made of them."""

    request: str
    hits: list[Hit] = field(default_factory=list)
    token_budget: int = 0
    tokens_used: int = 0
    dropped: int = 0  # hits found but left out for lack of budget
    error: str | None = None  # retrieval failed; the planner goes on without context
    _text: str = ""

    def as_prompt_text(self) -> str:
        return self._text

    def to_dict(self) -> dict:
        return {
            "request": self.request,
            "token_budget": self.token_budget,
            "tokens_used": self.tokens_used,
            "dropped": self.dropped,
            "error": self.error,
            "hits": [h.to_dict() for h in self.hits],
            "prompt_text": self._text,
        }


def _truncate(hit: Hit, max_tokens: int, intro_cost: int) -> Hit | None:
    """The hit with its snippet cut (whole lines) so its block costs at most ``max_tokens``."""
    lines = hit.snippet.split("\n")
    exact_lines = len(lines) == hit.end_line - hit.start_line + 1
    keep = len(lines)
    while keep > 0:
        cut = replace(hit, snippet="\n".join(lines[:keep]))
        if exact_lines:
            cut.end_line = hit.start_line + keep - 1
        if context_tokens(format_hit(cut)) + intro_cost <= max_tokens:
            return cut
        keep = keep - max(1, keep // 8)
    return None


def build_context(request: str, hits: list[Hit], token_budget: int) -> RetrievedContext:
    """Greedy fit: hits in rank order while they fit; the first that does not fit is cut to
    the remaining budget if enough is left, later smaller hits may still fit."""
    ctx = RetrievedContext(request=request, token_budget=token_budget)
    blocks: list[str] = []
    used = 0
    for hit in hits:
        intro_cost = 0 if blocks else context_tokens(CONTEXT_INTRO + "\n\n")
        sep_cost = 1 if blocks else 0  # the blank line between blocks
        cost = context_tokens(format_hit(hit)) + intro_cost + sep_cost
        if used + cost <= token_budget:
            chosen = hit
        else:
            left = token_budget - used - sep_cost
            chosen = _truncate(hit, left, intro_cost) if left - intro_cost >= MIN_PARTIAL_TOKENS else None
            if chosen is None:
                ctx.dropped += 1
                continue
            cost = context_tokens(format_hit(chosen)) + intro_cost + sep_cost
        blocks.append(format_hit(chosen))
        ctx.hits.append(chosen)
        used += cost
    if blocks:
        ctx._text = CONTEXT_INTRO + "\n\n" + "\n\n".join(blocks)
        ctx.tokens_used = context_tokens(ctx._text)
    return ctx


def retrieve_context(
    index: CodeIndex,
    request: str,
    token_budget: int = 1200,
    *,
    k: int = 8,
    refresh: bool = True,
) -> RetrievedContext:
    """Top hits for ``request`` within ``token_budget`` (estimated at ~4 chars per token).

    ``refresh`` re-scans the workspace first (cheap when little changed; the first call on an
    unindexed workspace indexes it), unless an update is already running, in which case the
    index is searched as it is. Never raises: on failure the context is empty and ``error``
    says why.
    """
    try:
        if refresh:
            index.try_update()
        hits = index.search(request, k=k)
    except Exception as exc:  # noqa: BLE001 - the planner must go on without context
        log.exception("code retrieval failed")
        return RetrievedContext(request=request, token_budget=token_budget, error=str(exc))
    return build_context(request, hits, token_budget)
