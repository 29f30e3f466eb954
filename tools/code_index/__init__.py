"""Codebase retrieval: a LanceDB index of the workspace and hybrid (vector + full-text) search.

Importing this package is cheap: LanceDB, sentence-transformers and torch load on first use.

    index = CodeIndex(Path("my/project"))
    report = index.update(on_progress=print)      # incremental; resumes an interrupted run
    hits = index.search("parse the config file", k=8, path_glob="*.py")
    ctx = retrieve_context(index, "add a --verbose flag", token_budget=1200)
    ctx.as_prompt_text(); ctx.to_dict()            # planner prompt / "retrieved context" event
"""

from tools.search_hit import Hit

from .chunking import Chunk, Chunker
from .cli import TqdmProgress, cli_index, cli_search
from .context import (
    RetrievedContext,
    build_context,
    context_tokens,
    retrieve_context,
)
from .embedder import Embedder, EmbedderError, default_model_path
from .hybrid_search import SearchMode
from .indexer import CodeIndex, IndexProgress, IndexReport

__all__ = [
    "Chunk",
    "Chunker",
    "CodeIndex",
    "Embedder",
    "EmbedderError",
    "IndexProgress",
    "IndexReport",
    "RetrievedContext",
    "Hit",
    "SearchMode",
    "TqdmProgress",
    "build_context",
    "cli_index",
    "cli_search",
    "default_model_path",
    "context_tokens",
    "retrieve_context",
]
