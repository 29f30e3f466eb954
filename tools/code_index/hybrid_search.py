"""Search results: vector and full-text candidates fused by reciprocal rank, overlaps merged.

Hybrid search asks both sides for ``max(4k, 24)`` candidates, scores each chunk
``sum(1 / (60 + rank))`` over the lists it appears in (reciprocal rank fusion, ranks from 1),
keeps those matching the path glob, merges chunks of the same file whose line ranges overlap
(score: the best of them) and returns the top ``k``. ``vector`` mode scores by cosine
similarity, ``fts`` mode by BM25.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from tools.search_hit import Hit

from .globs import path_matches

SearchMode = Literal["hybrid", "vector", "fts"]
MODES: tuple[str, ...] = ("hybrid", "vector", "fts")
RRF_K = 60


@dataclass(slots=True)
class Candidate:
    """A chunk row as returned by one side of the search."""

    id: str
    path: str
    start_line: int
    end_line: int
    symbol: str
    language: str
    text: str
    vector_score: float | None = None
    fts_score: float | None = None
    score: float = 0.0
    ranks: dict[str, int] = field(default_factory=dict)
    tiebreak: float = 0.0  # sum of the side scores relative to each side's best

    def sort_key(self) -> tuple:
        return (-self.score, -self.tiebreak, self.path, self.start_line)


_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CAMEL_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def split_identifier(ident: str) -> list[str]:
    """``getHTTPResponse_code`` -> ``["get", "HTTP", "Response", "code"]``."""
    return _CAMEL_PART.findall(ident)


def identifier_words(text: str) -> list[str]:
    """The parts of camelCase identifiers in ``text`` (snake_case splits in the tokenizer)."""
    seen: dict[str, None] = {}
    for ident in set(_IDENT.findall(text)):
        if ident.islower() or ident.isupper():
            continue
        parts = split_identifier(ident)
        if len(parts) > 1:
            for part in parts:
                seen.setdefault(part.lower(), None)
    return list(seen)


def fts_document(path: str, symbol: str, text: str) -> str:
    """What the full-text index sees for a chunk: path words, symbol, code, camelCase parts."""
    path_words = re.sub(r"[/._\-]+", " ", path)
    extra = identifier_words(symbol + "\n" + text)
    return f"{path_words}\n{symbol}\n{text}\n{' '.join(extra)}"


def fts_query_text(query: str) -> str:
    """Plain words for the full-text side: punctuation dropped, camelCase split as well."""
    words: list[str] = []
    for word in _WORD.findall(query):
        words.append(word)
        parts = split_identifier(word)
        if len(parts) > 1:
            words.extend(parts)
    return " ".join(words)


def rrf_fuse(lists: dict[str, list[Candidate]], rrf_k: int = RRF_K) -> list[Candidate]:
    """Reciprocal rank fusion of ranked candidate lists (keyed by side name).

    Equal fused scores (e.g. ranks 1+2 against 2+1) are ordered by the side scores relative to
    each side's best, so the candidate that one side prefers by a wide margin comes first.
    """
    merged: dict[str, Candidate] = {}
    for side, cands in lists.items():
        best = max((_side_score(c, side) for c in cands), default=0.0)
        for rank, cand in enumerate(cands, start=1):
            cur = merged.get(cand.id)
            if cur is None:
                cur = merged[cand.id] = cand
            else:
                if cand.vector_score is not None:
                    cur.vector_score = cand.vector_score
                if cand.fts_score is not None:
                    cur.fts_score = cand.fts_score
            cur.ranks[side] = rank
            cur.score += 1.0 / (rrf_k + rank)
            if best > 0:
                cur.tiebreak += _side_score(cand, side) / best
    return sorted(merged.values(), key=Candidate.sort_key)


def _side_score(cand: Candidate, side: str) -> float:
    value = cand.vector_score if side == "vector" else cand.fts_score
    return float(value or 0.0)


def _merge_text(a: Candidate, b: Candidate) -> str:
    """Text spanning both chunks (``a`` starts first); falls back to ``a``'s text."""
    a_lines = a.text.split("\n")
    b_lines = b.text.split("\n")
    if len(a_lines) != a.end_line - a.start_line + 1 or len(b_lines) != (b.end_line - b.start_line + 1):
        return a.text  # pieces of an over-long line: line arithmetic does not apply
    if b.end_line <= a.end_line:
        return a.text
    return "\n".join(a_lines + b_lines[a.end_line - b.start_line + 1 :])


def merge_overlapping(cands: Iterable[Candidate]) -> list[Candidate]:
    """Merge candidates of the same file whose line ranges overlap; keeps the best's symbol."""
    by_path: dict[str, list[Candidate]] = {}
    for c in cands:
        by_path.setdefault(c.path, []).append(c)
    out: list[Candidate] = []
    for group in by_path.values():
        group.sort(key=lambda c: (c.start_line, c.end_line))
        cur = group[0]
        for nxt in group[1:]:
            if nxt.start_line <= cur.end_line:
                best = cur if cur.sort_key() <= nxt.sort_key() else nxt
                cur = Candidate(
                    id=best.id,
                    path=cur.path,
                    start_line=cur.start_line,
                    end_line=max(cur.end_line, nxt.end_line),
                    symbol=best.symbol,
                    language=best.language,
                    text=_merge_text(cur, nxt),
                    vector_score=_best(cur.vector_score, nxt.vector_score),
                    fts_score=_best(cur.fts_score, nxt.fts_score),
                    score=max(cur.score, nxt.score),
                    ranks={**nxt.ranks, **cur.ranks},
                    tiebreak=best.tiebreak,
                )
            else:
                out.append(cur)
                cur = nxt
        out.append(cur)
    out.sort(key=Candidate.sort_key)
    return out


def _best(a: float | None, b: float | None) -> float | None:
    if a is None:
        return b
    if b is None:
        return a
    return max(a, b)


def finalize(lists: dict[str, list[Candidate]], k: int, path_glob: str | None, mode: str) -> list[Hit]:
    """Fuse (hybrid) or score (single side), filter by glob, merge overlaps, keep ``k``."""
    if path_glob:
        lists = {s: [c for c in cs if path_matches(path_glob, c.path)] for s, cs in lists.items()}
    if mode == "hybrid":
        cands = rrf_fuse(lists)
    else:
        side = lists.get(mode, [])
        for c in side:
            c.score = (c.vector_score if mode == "vector" else c.fts_score) or 0.0
        cands = side
    merged = merge_overlapping(cands)[:k]
    return [
        Hit(
            path=c.path,
            start_line=c.start_line,
            end_line=c.end_line,
            symbol=c.symbol,
            language=c.language,
            score=round(float(c.score), 6),
            snippet=c.text,
            vector_score=None if c.vector_score is None else round(float(c.vector_score), 6),
            fts_score=None if c.fts_score is None else round(float(c.fts_score), 6),
        )
        for c in merged
    ]
