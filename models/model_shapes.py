"""A model's planning facts before its file is here: a GGUFInfo built from the catalog's shape.

To choose which coder to fetch for the free VRAM, the offload planner must see a model that is not
downloaded yet. Its tensor table is rebuilt from config.json facts and the exact file size: the
token embedding and output head at the types the catalog gives (llama.cpp's Q4_K_M recipe: Q4_K and
Q6_K, unless the width forces others), the rest of the file spread evenly over the blocks. The
header (tokenizer, some MiB) is counted as block weights, so the estimate errs a little on the large
side, never the small.
"""

from __future__ import annotations

from pathlib import Path

from models.catalog import CatalogEntry, ModelShape
from models.gguf_reader import GGUFInfo, TensorInfo, tensor_nbytes

_F32, _Q6_K = 0, 14


def _tensor(name: str, shape: tuple[int, ...], ggml_type: int) -> TensorInfo:
    return TensorInfo(name, shape, ggml_type, 0, tensor_nbytes(shape, ggml_type) or 0)


def _head_tensors(shape: ModelShape) -> list[TensorInfo]:
    embd_shape = (shape.n_embd, shape.n_vocab)
    if shape.tied_output:  # llama.cpp quantizes a tied embedding as the head: Q6_K
        return [_tensor("token_embd.weight", embd_shape, _Q6_K)]
    return [
        _tensor("token_embd.weight", embd_shape, shape.embd_type),
        _tensor("output.weight", embd_shape, shape.output_type),
    ]


def shape_info(entry: CatalogEntry) -> GGUFInfo:
    """The entry as the planner would read it from the file; needs entry.shape."""
    shape = entry.shape
    if shape is None:
        raise ValueError(f"'{entry.id}' has no shape in the catalog; it can be planned only once downloaded")
    tensors = _head_tensors(shape) + [_tensor("output_norm.weight", (shape.n_embd,), _F32)]
    per_block = max(0, entry.size_bytes - sum(t.n_bytes for t in tensors)) // shape.n_layer
    head_dim = shape.n_embd // shape.n_head
    for i in range(shape.n_layer):
        # One tensor per block carries the block's bytes; its shape only keeps parameter_count sane.
        n_params = shape.n_embd * (2 * shape.n_embd + 2 * shape.n_head_kv * head_dim + 3 * shape.n_ff)
        tensors.append(TensorInfo(f"blk.{i}.weights", (n_params,), 12, 0, per_block))
    arch = shape.arch
    metadata = {
        "general.architecture": arch,
        "general.name": entry.title,
        "general.file_type": 15,  # Q4_K_M; only used in what the page shows
        f"{arch}.block_count": shape.n_layer,
        f"{arch}.context_length": entry.context_length,
        f"{arch}.embedding_length": shape.n_embd,
        f"{arch}.feed_forward_length": shape.n_ff,
        f"{arch}.attention.head_count": shape.n_head,
        f"{arch}.attention.head_count_kv": shape.n_head_kv,
    }
    return GGUFInfo(
        path=Path(entry.filename),
        file_size=entry.size_bytes,
        version=3,
        metadata=metadata,
        tensors=tensors,
        data_offset=0,
        skipped_arrays={"tokenizer.ggml.tokens": shape.n_vocab},
    )
