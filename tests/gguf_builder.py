"""Write small synthetic GGUF files for tests: any metadata, any tensor shapes, data left sparse."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

from models.gguf_reader import GGUF_MAGIC, tensor_nbytes

_ALIGN = 32


def _string(text: str) -> bytes:
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def _value(value: Any) -> bytes:
    if isinstance(value, bool):
        return struct.pack("<I?", 7, value)
    if isinstance(value, int):
        return struct.pack("<Iq", 11, value)  # INT64
    if isinstance(value, float):
        return struct.pack("<If", 6, value)
    if isinstance(value, str):
        return struct.pack("<I", 8) + _string(value)
    if isinstance(value, list):
        items = b"".join(struct.pack("<q", int(v)) for v in value)
        return struct.pack("<IIQ", 9, 11, len(value)) + items
    raise TypeError(value)


def write_gguf(
    path: Path,
    metadata: dict[str, Any],
    tensors: list[tuple[str, tuple[int, ...], int]],
    *,
    truncate_by: int = 0,
) -> Path:
    """Tensors are (name, shape, ggml_type); their data is a sparse hole of the right size."""
    header = GGUF_MAGIC + struct.pack("<IQQ", 3, len(tensors), len(metadata))
    for key, value in metadata.items():
        header += _string(key) + _value(value)
    offset = 0
    for name, shape, ggml_type in tensors:
        header += _string(name) + struct.pack("<I", len(shape))
        header += b"".join(struct.pack("<Q", dim) for dim in shape)
        header += struct.pack("<IQ", ggml_type, offset)
        size = tensor_nbytes(shape, ggml_type) or 0
        offset += (size + _ALIGN - 1) // _ALIGN * _ALIGN
    data_start = (len(header) + _ALIGN - 1) // _ALIGN * _ALIGN
    with path.open("wb") as handle:
        handle.write(header.ljust(data_start, b"\0"))
        handle.truncate(data_start + offset - truncate_by)  # sparse: no disk used for the data
    return path


def llama_like(
    path: Path,
    *,
    n_layer: int = 4,
    n_embd: int = 64,
    n_head: int = 4,
    n_head_kv: int = 2,
    n_vocab: int = 1000,
    n_ff: int = 128,
    ggml_type: int = 0,
    arch: str = "llama",
    extra: dict[str, Any] | None = None,
    truncate_by: int = 0,
) -> Path:
    metadata: dict[str, Any] = {
        "general.architecture": arch,
        "general.name": "synthetic",
        "general.file_type": 0,
        f"{arch}.block_count": n_layer,
        f"{arch}.context_length": 2048,
        f"{arch}.embedding_length": n_embd,
        f"{arch}.feed_forward_length": n_ff,
        f"{arch}.attention.head_count": n_head,
        f"{arch}.attention.head_count_kv": n_head_kv,
        f"{arch}.vocab_size": n_vocab,
    }
    metadata.update(extra or {})
    head_dim = n_embd // n_head
    tensors: list[tuple[str, tuple[int, ...], int]] = [("token_embd.weight", (n_embd, n_vocab), ggml_type)]
    for i in range(n_layer):
        tensors += [
            (f"blk.{i}.attn_q.weight", (n_embd, n_embd), ggml_type),
            (f"blk.{i}.attn_k.weight", (n_embd, n_head_kv * head_dim), ggml_type),
            (f"blk.{i}.attn_v.weight", (n_embd, n_head_kv * head_dim), ggml_type),
            (f"blk.{i}.ffn_up.weight", (n_embd, n_ff), ggml_type),
        ]
    tensors += [("output_norm.weight", (n_embd,), 0), ("output.weight", (n_embd, n_vocab), ggml_type)]
    return write_gguf(path, metadata, tensors, truncate_by=truncate_by)
