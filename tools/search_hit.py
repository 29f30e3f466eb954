"""`Hit`: one span of a workspace file that a search found, the same type from either search
(plain text search or the code index) to the crew's context event and the page's context table."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(slots=True)
class Hit:
    """A span of a workspace file (1-based inclusive lines) and its text."""

    path: str
    start_line: int
    end_line: int
    symbol: str  # the function or class the span holds; "" from text search
    language: str  # "" from text search
    score: float
    snippet: str
    vector_score: float | None = None  # cosine similarity, when the index's vector side found it
    fts_score: float | None = None  # BM25, when the index's full-text side found it

    def to_dict(self) -> dict:
        return asdict(self)

    @property
    def location(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"
