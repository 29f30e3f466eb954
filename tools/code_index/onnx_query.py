"""Query embeddings through ONNX Runtime: the same model, ~3x faster for one short text.

A search embeds one query of a dozen tokens, where PyTorch's per-operator overhead dominates;
ONNX Runtime runs the same graph as one optimised session (the figures: README, Benchmarks,
Retrieval). The vectors agree with PyTorch's to ~1e-7, so queries stay comparable with the
stored (PyTorch-made) chunk vectors and search results do not change.

The whole sentence-transformers pipeline (transformer, pooling, normalisation) is exported once
per model with ``torch.onnx.export`` to ``<user cache>/onnx/<model id>.onnx`` and reused by
later processes. Exporting needs the ``onnx`` package besides ``onnxruntime``; without either,
or with ``LOCALCREW_QUERY_ONNX=0``, queries keep the PyTorch path. Exporting and loading run in
a background thread started by the first query, which is itself embedded by PyTorch: a search
never waits for them. Each load is checked against PyTorch on a few probe texts (short, long,
truncated); a model whose outputs differ is not used.
"""

from __future__ import annotations

import copy
import logging
import os
import threading
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .location import user_cache_dir

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)

ENV_QUERY_ONNX = "LOCALCREW_QUERY_ONNX"
MAX_ABS_DIFF = 1e-4  # largest allowed difference from PyTorch in any vector component
PROBES = (
    "x",
    "parse the config file and return its sections",
    "def load_cached_user_profile(session):\n    return session.fetch(profile)\n",
    " ".join(["render the nested widget layout"] * 80),  # past the model's input length
)


def onnx_enabled() -> bool:
    return os.environ.get(ENV_QUERY_ONNX, "1").strip().lower() not in ("0", "false", "no", "off")


def onnx_available() -> bool:
    """``onnxruntime`` (to run) and ``onnx`` (for ``torch.onnx.export``) are importable."""
    import importlib.util

    return all(importlib.util.find_spec(name) is not None for name in ("onnxruntime", "onnx"))


def onnx_path_for(model_id: str) -> Path:
    return user_cache_dir() / "onnx" / f"{model_id}.onnx"


class OnnxQueryEncoder:
    """Runs the exported pipeline in the calling thread (one ONNX Runtime thread, GIL released)."""

    def __init__(self, session: Any, model: Any, input_names: Sequence[str]) -> None:
        self.session = session
        self.model = model  # the sentence-transformers model, for its tokenizer
        self.input_names = list(input_names)
        self.failures = 0  # encodings failed in a row (see ``Embedder.encode_query``)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        feats = self.model.preprocess(list(texts))
        inputs = {name: feats[name].numpy().astype(np.int64, copy=False) for name in self.input_names}
        (vecs,) = self.session.run(None, inputs)
        return np.asarray(vecs, dtype=np.float32)


def export(model: Any, path: Path) -> list[str]:
    """Export ``model`` (input: token tensors, output: the normalised sentence embedding).

    Exports a copy, so threads encoding with ``model`` meanwhile are not traced. Written to a
    temporary name and renamed, so a reader never sees half a file. Returns the input names.
    """
    import torch

    sample = {k: v for k, v in model.preprocess([PROBES[1]]).items() if isinstance(v, torch.Tensor)}
    names = list(sample)
    clone = copy.deepcopy(model).cpu().eval()

    class Pipeline(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.st = clone

        def forward(self, *tensors: torch.Tensor) -> torch.Tensor:
            out = self.st(dict(zip(names, tensors, strict=True)))["sentence_embedding"]
            return torch.nn.functional.normalize(out, p=2.0, dim=1)

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        # The tracer warns about shape-dependent branches of the model code: the probes check
        # the result, the warnings would only fill the user's terminal.
        with torch.inference_mode(False), torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                Pipeline().eval(),
                tuple(sample[n] for n in names),
                str(tmp),
                input_names=names,
                output_names=["sentence_embedding"],
                dynamic_axes={n: {0: "batch", 1: "tokens"} for n in names},
                opset_version=17,
                dynamo=False,
            )
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return names


def load(path: Path, model: Any) -> OnnxQueryEncoder:
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1  # one short query gains nothing from a second thread
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3
    session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    return OnnxQueryEncoder(session, model, names)


def build(
    model: Any, model_id: str, reference: Callable[[Sequence[str]], np.ndarray]
) -> OnnxQueryEncoder | None:
    """The encoder for ``model`` (exported first if not cached), or None when it cannot be
    made or its vectors differ from ``reference`` (the PyTorch encoder) on the probes."""
    import numpy as np

    path = onnx_path_for(model_id)
    # A cached file is tried first; one that fails (stale, broken) is exported again, once.
    for fresh in (False, True) if path.is_file() else (True,):
        try:
            if fresh:
                export(model, path)
            encoder = load(path, model)
            got = encoder.encode(PROBES)
            want = np.asarray(reference(list(PROBES)), dtype=np.float32)
            diff = float(np.abs(got - want).max())
            if diff <= MAX_ABS_DIFF:
                return encoder
            log.warning("ONNX query model %s differs from PyTorch by %.2g", path, diff)
        except Exception as exc:  # noqa: BLE001 - any failure: queries stay on PyTorch
            log.warning("ONNX query model unavailable (%s): %s", path, exc)
    return None
