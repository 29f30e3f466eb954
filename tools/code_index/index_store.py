"""The LanceDB side: one table of chunks per embedding model, its writes, indices and queries.

Table ``chunks_<model id>_c<chunker version>``: a different model (or chunker) gets a different
table, so vectors are never mixed; switching back finds the old table again. Columns:

    id          string   hash of (path, lines, embedded text): the merge key
    path        string   POSIX, relative to the workspace
    start_line  int32    1-based, inclusive
    end_line    int32
    symbol      string   "Class.method", "" for module/text chunks
    language    string
    kind        string   function | class | method | module | text
    text        string   the chunk as it is in the file
    fts_text    string   path words + symbol + text + camelCase parts (full-text indexed)
    embed_hash  string   hash of the embedded text: vectors are reused by it
    file_hash   string   hash of the whole file when the chunk was written
    vector      fixed_size_list<float32>[dim], L2-normalised

Writes happen a few files at a time; each write is one LanceDB commit that holds every chunk of
those files (``merge_insert`` on ``id``, deleting the files' other rows in the same commit), so a
file is in the table either completely at one content hash or not at all.

Indices: native full-text (BM25, English stemming and stop words) on ``fts_text``, and from
``VECTOR_INDEX_MIN_ROWS`` rows an IVF_FLAT vector index, which LanceDB keeps in memory and
which compares raw vectors (no quantisation). Below ``EXACT_MAX_ROWS`` it has one partition: an
exact search. Above, it has one partition per ``ROWS_PER_PARTITION`` rows and a query probes
the nearest quarter of them (approximate; ``bench.retrieval`` reports its agreement with the
exact search; why IVF_FLAT and these sizes: README, Benchmarks, Retrieval). The partition count
is in the index name and the index is rebuilt when the table grows or shrinks past twice or
half of what it was built for. Rows written since the last index update are searched by brute
force, so results are complete right after a write; ``optimize()`` (compaction, folding new
rows into the indices, pruning old versions) runs after big writes or every
``OPTIMIZE_EVERY_WRITES`` commits.

Queries are started with ``submit_vector``/``submit_fts``, which return futures: both sides of
a hybrid search run at once while the caller embeds the query. They go straight to the async
table behind LanceDB's sync one, on LanceDB's own event loop: one hand-over per query instead
of the sync wrapper's three plus its query-object round trip (what that saves: README,
Benchmarks, Retrieval). Those two are LanceDB internals (``LanceTable._table``,
``background_loop.LOOP``; lancedb is pinned): where they are missing the same queries run
through the public sync API on a worker thread.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .hybrid_search import Candidate

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

log = logging.getLogger(__name__)

VECTOR_INDEX_MIN_ROWS = 5_000
EXACT_MAX_ROWS = 50_000
ROWS_PER_PARTITION = 6_250
PROBED_SHARE = 4  # a query probes 1/4 of the partitions
OPTIMIZE_EVERY_WRITES = 20
OPTIMIZE_AFTER_ROWS = 5_000
KEEP_OLD_VERSIONS = timedelta(minutes=10)
FTS_COLUMN = "fts_text"
SELECT = ["id", "path", "start_line", "end_line", "symbol", "language", "text"]

# Lance logs a deprecation warning for every scored query unless told otherwise.
os.environ.setdefault("LANCEDB_LOG", "error")

# Runs queries through the sync API where LanceDB's async internals are not available.
_SYNC_QUERIES = ThreadPoolExecutor(max_workers=2, thread_name_prefix="code-index-query-sync")


def vector_partitions_for(rows: int) -> int:
    return 1 if rows < EXACT_MAX_ROWS else max(2, rows // ROWS_PER_PARTITION)


def _partitions_in(index_name: str | None) -> int:
    """Partition count from an index name ``vector_p<N>``; 0 without an index."""
    if not index_name:
        return 0
    match = re.fullmatch(r"vector_p(\d+)", index_name)
    return int(match.group(1)) if match else 1


def table_name_for(model_id: str, chunker_version: int) -> str:
    return f"chunks_{model_id}_c{chunker_version}"


def sql_str(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def sql_in(column: str, values: Sequence[str]) -> str:
    return f"{column} IN ({', '.join(sql_str(v) for v in values)})"


def schema_for(dim: int) -> pa.Schema:
    import pyarrow as pa

    return pa.schema(
        [
            ("id", pa.string()),
            ("path", pa.string()),
            ("start_line", pa.int32()),
            ("end_line", pa.int32()),
            ("symbol", pa.string()),
            ("language", pa.string()),
            ("kind", pa.string()),
            ("text", pa.string()),
            (FTS_COLUMN, pa.string()),
            ("embed_hash", pa.string()),
            ("file_hash", pa.string()),
            ("vector", pa.list_(pa.float32(), dim)),
        ]
    )


class IndexStore:
    """Owns the LanceDB connection and the chunk table of one model."""

    def __init__(self, index_dir: Path, table_name: str) -> None:
        self.index_dir = Path(index_dir)
        self.table_name = table_name
        self._lock = threading.RLock()
        self._db: Any = None
        self._tbl: Any = None
        self._partitions: int | None = None

    # -- connection -------------------------------------------------------------------------
    def _connect(self) -> Any:
        if self._db is None:
            import lancedb

            # Re-check the table version at most every second, so a search sees what another
            # process (the CLI beside the GUI) wrote, without a check on every query.
            self._db = lancedb.connect(str(self.index_dir), read_consistency_interval=timedelta(seconds=1))
        return self._db

    def table(self) -> Any | None:
        """The table, or None before the first write."""
        with self._lock:
            if self._tbl is None:
                db = self._connect()
                try:
                    self._tbl = db.open_table(self.table_name)
                except (ValueError, FileNotFoundError, RuntimeError, OSError):
                    return None
            return self._tbl

    def ensure_table(self, dim: int) -> Any:
        with self._lock:
            tbl = self.table()
            if tbl is None:
                tbl = self._connect().create_table(self.table_name, schema=schema_for(dim), exist_ok=True)
                self._tbl = tbl
            return tbl

    def exists(self) -> bool:
        return self.table() is not None

    def count_rows(self) -> int:
        tbl = self.table()
        return 0 if tbl is None else int(tbl.count_rows())

    # -- reads used by the indexer -----------------------------------------------------------
    def file_states(self) -> dict[str, tuple[str, int]]:
        """path -> (file_hash, chunk count) as stored: the truth after an interrupted run."""
        tbl = self.table()
        if tbl is None:
            return {}
        data = tbl.search().select(["path", "file_hash"]).limit(None).to_arrow()
        states: dict[str, tuple[str, int]] = {}
        for path, file_hash in zip(data["path"].to_pylist(), data["file_hash"].to_pylist(), strict=True):
            prev = states.get(path)
            states[path] = (file_hash, 1 if prev is None else prev[1] + 1)
        return states

    def lookup_vectors(self, embed_hashes: Sequence[str]) -> dict[str, np.ndarray]:
        """Stored vectors by embedded-text hash (for unchanged chunks, renames and copies)."""
        import numpy as np

        tbl = self.table()
        if tbl is None or not embed_hashes:
            return {}
        found: dict[str, np.ndarray] = {}
        unique = sorted(set(embed_hashes))
        for i in range(0, len(unique), 2000):
            part = unique[i : i + 2000]
            data = (
                tbl.search()
                .where(sql_in("embed_hash", part))
                .select(["embed_hash", "vector"])
                .limit(None)
                .to_arrow()
            )
            if data.num_rows == 0:
                continue
            dim = data.schema.field("vector").type.list_size
            flat = data["vector"].combine_chunks().flatten().to_numpy(zero_copy_only=False)
            vecs = np.asarray(flat, dtype=np.float32).reshape(-1, dim)
            for h, v in zip(data["embed_hash"].to_pylist(), vecs, strict=True):
                found.setdefault(h, v)
        return found

    # -- writes ------------------------------------------------------------------------------
    def write_files(self, rows: pa.Table, paths: Sequence[str], fresh: bool) -> None:
        """Replace all rows of ``paths`` by ``rows`` in one commit.

        ``fresh``: none of ``paths`` can have rows yet (a plain append is then enough).
        """
        tbl = self.ensure_table(rows.schema.field("vector").type.list_size)
        if fresh:
            if rows.num_rows:
                tbl.add(rows)
            return
        (
            tbl.merge_insert("id")
            .when_matched_update_all()
            .when_not_matched_insert_all()
            .when_not_matched_by_source_delete(sql_in("path", paths))
            .execute(rows)
        )

    def delete_paths(self, paths: Sequence[str]) -> None:
        tbl = self.table()
        if tbl is None or not paths:
            return
        for i in range(0, len(paths), 500):
            tbl.delete(sql_in("path", paths[i : i + 500]))

    # -- index maintenance -------------------------------------------------------------------
    def _index_names(self, tbl: Any) -> dict[str, str]:
        """column -> index name for the indices that exist."""
        out: dict[str, str] = {}
        for cfg in tbl.list_indices():
            for col in cfg.columns:
                out[col] = str(cfg.name)
        return out

    def optimize_due(self, writes_since_optimize: int, rows_written: int) -> bool:
        return writes_since_optimize >= OPTIMIZE_EVERY_WRITES or rows_written >= OPTIMIZE_AFTER_ROWS

    def optimize(self) -> None:
        """Compact small fragments, fold new rows into the indices, prune old versions."""
        tbl = self.table()
        if tbl is not None and tbl.count_rows() > 0:
            tbl.optimize(cleanup_older_than=KEEP_OLD_VERSIONS)

    def ensure_indices(self) -> None:
        """Create the full-text index, and the vector index once the table is big enough."""
        tbl = self.table()
        if tbl is None:
            return
        rows = tbl.count_rows()
        if rows == 0:
            return
        indices = self._index_names(tbl)
        if FTS_COLUMN not in indices:
            from lancedb.index import FTS

            tbl.create_index(FTS_COLUMN, config=FTS(with_position=False), replace=True)
        wanted = vector_partitions_for(rows) if rows >= VECTOR_INDEX_MIN_ROWS else 0
        have = _partitions_in(indices.get("vector"))
        if wanted and (have == 0 or wanted >= 2 * have or 2 * wanted <= have):
            self.build_vector_index(wanted, old_name=indices.get("vector"))

    def build_vector_index(self, partitions: int, old_name: str | None = None) -> None:
        from lancedb.index import IvfFlat

        tbl = self.table()
        if old_name:
            tbl.drop_index(old_name)
        tbl.create_index(
            "vector",
            config=IvfFlat(distance_type="dot", num_partitions=partitions),
            name=f"vector_p{partitions}",
            replace=True,
        )
        self._partitions = partitions

    def vector_partitions(self) -> int:
        """Partitions of the vector index (0: none, searched by brute force)."""
        if self._partitions is None:
            tbl = self.table()
            self._partitions = _partitions_in(self._index_names(tbl).get("vector")) if tbl is not None else 0
        return self._partitions

    # -- queries -----------------------------------------------------------------------------
    def vector_candidates(self, vector: np.ndarray, n: int, where: str | None) -> list[Candidate]:
        return self.submit_vector(vector, n, where).result()

    def submit_vector(self, vector: np.ndarray, n: int, where: str | None) -> Future[list[Candidate]]:
        """Start the ``n`` nearest chunks to ``vector`` (best first); the future gives them."""
        tbl = self.table()
        if tbl is None:
            return _done([])
        partitions = self.vector_partitions()
        probes = max(1, partitions // PROBED_SHARE) if partitions > 1 else 0  # 0: exact search
        columns = [*SELECT, "_distance"]

        def convert(data: pa.Table) -> list[Candidate]:
            # Vectors are L2-normalised: dot is the cosine, and LanceDB's dot distance is 1 - dot.
            return [_candidate(r, vector_score=1.0 - float(r["_distance"])) for r in data.to_pylist()]

        def build_async(atbl: Any) -> Any:
            q = atbl.query().limit(n).select(columns)
            if where:
                q = q.where(where)  # a prefilter, as in the sync API
            q = q.nearest_to(vector).distance_type("dot").column("vector")
            return q.nprobes(probes).maximum_nprobes(probes) if probes else q

        def build_sync() -> Any:
            q = tbl.search(vector, vector_column_name="vector").distance_type("dot")
            q = q.select(columns).limit(n)
            if probes:
                q = q.nprobes(probes)
            return q.where(where, prefilter=True) if where else q

        return self._submit(tbl, build_async, build_sync, convert)

    def submit_fts(self, text: str, n: int, where: str | None) -> Future[list[Candidate]]:
        """Start the ``n`` best BM25 matches of ``text`` (best first); the future gives them."""
        tbl = self.table()
        if tbl is None or not text.strip():
            return _done([])
        columns = [*SELECT, "_score"]

        def convert(data: pa.Table) -> list[Candidate]:
            return [_candidate(r, fts_score=float(r["_score"])) for r in data.to_pylist()]

        def build_async(atbl: Any) -> Any:
            q = atbl.query().limit(n).select(columns)
            if where:
                q = q.where(where)
            return q.nearest_to_text(text, columns=FTS_COLUMN)

        def build_sync() -> Any:
            q = tbl.search(text, query_type="fts", fts_columns=FTS_COLUMN).select(columns).limit(n)
            return q.where(where, prefilter=True) if where else q

        return self._submit(tbl, build_async, build_sync, convert)

    def _submit(
        self,
        tbl: Any,
        build_async: Callable[[Any], Any],
        build_sync: Callable[[], Any],
        convert: Callable[[pa.Table], list[Candidate]],
    ) -> Future[list[Candidate]]:
        parts = _async_parts(tbl)
        if parts is None:
            return _SYNC_QUERIES.submit(lambda: convert(build_sync().to_arrow()))
        atbl, loop = parts

        async def run() -> list[Candidate]:
            return convert(await build_async(atbl).to_arrow())

        return asyncio.run_coroutine_threadsafe(run(), loop)


def _async_parts(tbl: Any) -> tuple[Any, asyncio.AbstractEventLoop] | None:
    """LanceDB's async table behind the sync ``tbl`` and the event loop LanceDB runs it on."""
    try:
        from lancedb.background_loop import LOOP
        from lancedb.table import AsyncTable
    except ImportError:  # pragma: no cover - another lancedb layout
        return None
    atbl = getattr(tbl, "_table", None)
    loop = getattr(LOOP, "loop", None)
    if not isinstance(atbl, AsyncTable) or not isinstance(loop, asyncio.AbstractEventLoop):
        return None
    if loop.is_closed() or not loop.is_running():
        return None
    return atbl, loop


def _done(value: Any) -> Future:
    fut: Future = Future()
    fut.set_result(value)
    return fut


def _candidate(row: dict, vector_score: float | None = None, fts_score: float | None = None) -> Candidate:
    return Candidate(
        id=row["id"],
        path=row["path"],
        start_line=int(row["start_line"]),
        end_line=int(row["end_line"]),
        symbol=row["symbol"] or "",
        language=row["language"] or "",
        text=row["text"] or "",
        vector_score=vector_score,
        fts_score=fts_score,
    )
