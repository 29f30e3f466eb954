"""Read a GGUF file's metadata and tensor table without loading the model.

The planner needs exact per-tensor sizes and the attention shape; reading the header is
milliseconds even for a 5 GB file because tensor data is never touched.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

GGUF_MAGIC = b"GGUF"
DEFAULT_ALIGNMENT = 32

# ggml tensor type id -> (elements per block, bytes per block); from ggml.h / ggml.c.
GGML_TYPE_SIZES: dict[int, tuple[int, int]] = {
    0: (1, 4),  # F32
    1: (1, 2),  # F16
    2: (32, 18),  # Q4_0
    3: (32, 20),  # Q4_1
    6: (32, 22),  # Q5_0
    7: (32, 24),  # Q5_1
    8: (32, 34),  # Q8_0
    9: (32, 36),  # Q8_1
    10: (256, 84),  # Q2_K
    11: (256, 110),  # Q3_K
    12: (256, 144),  # Q4_K
    13: (256, 176),  # Q5_K
    14: (256, 210),  # Q6_K
    15: (256, 292),  # Q8_K
    16: (256, 66),  # IQ2_XXS
    17: (256, 74),  # IQ2_XS
    18: (256, 98),  # IQ3_XXS
    19: (256, 50),  # IQ1_S
    20: (32, 18),  # IQ4_NL
    21: (256, 110),  # IQ3_S
    22: (256, 82),  # IQ2_S
    23: (256, 136),  # IQ4_XS
    24: (1, 1),  # I8
    25: (1, 2),  # I16
    26: (1, 4),  # I32
    27: (1, 8),  # I64
    28: (1, 8),  # F64
    29: (256, 56),  # IQ1_M
    30: (1, 2),  # BF16
    34: (256, 54),  # TQ1_0
    35: (256, 66),  # TQ2_0
    39: (32, 17),  # MXFP4
}

# llama_ftype (general.file_type) -> the name users know from file names.
FILE_TYPE_NAMES: dict[int, str] = {
    0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 7: "Q8_0", 8: "Q5_0", 9: "Q5_1",
    10: "Q2_K", 11: "Q3_K_S", 12: "Q3_K_M", 13: "Q3_K_L", 14: "Q4_K_S", 15: "Q4_K_M",
    16: "Q5_K_S", 17: "Q5_K_M", 18: "Q6_K", 19: "IQ2_XXS", 20: "IQ2_XS", 21: "Q2_K_S",
    22: "IQ3_XS", 23: "IQ3_XXS", 24: "IQ1_S", 25: "IQ4_NL", 26: "IQ3_S", 27: "IQ3_M",
    28: "IQ2_S", 29: "IQ2_M", 30: "IQ4_XS", 31: "IQ1_M", 32: "BF16", 36: "TQ1_0",
    37: "TQ2_0", 38: "MXFP4_MOE",
}  # fmt: skip

# GGUF metadata value types.
_UINT8, _INT8, _UINT16, _INT16, _UINT32, _INT32, _FLOAT32, _BOOL = range(8)
_STRING, _ARRAY, _UINT64, _INT64, _FLOAT64 = 8, 9, 10, 11, 12
_SCALAR_FORMATS = {
    _UINT8: "<B", _INT8: "<b", _UINT16: "<H", _INT16: "<h", _UINT32: "<I", _INT32: "<i",
    _FLOAT32: "<f", _BOOL: "<?", _UINT64: "<Q", _INT64: "<q", _FLOAT64: "<d",
}  # fmt: skip
# Arrays longer than this (token lists, merges) are skipped, not kept: the planner never needs them.
_MAX_KEPT_ARRAY = 4096


class GGUFError(ValueError):
    """The file is missing, not GGUF, or damaged; the message says which."""


@dataclass(frozen=True)
class TensorInfo:
    name: str
    shape: tuple[int, ...]
    ggml_type: int
    offset: int
    n_bytes: int


@dataclass
class GGUFInfo:
    path: Path
    file_size: int
    version: int
    metadata: dict[str, Any]
    tensors: list[TensorInfo]
    data_offset: int
    skipped_arrays: dict[str, int] = field(default_factory=dict)  # key -> length

    # --- model shape, as llama.cpp reads it ---
    @property
    def architecture(self) -> str:
        return str(self.metadata.get("general.architecture", "unknown"))

    def arch_value(self, suffix: str, default: Any = None) -> Any:
        return self.metadata.get(f"{self.architecture}.{suffix}", default)

    @property
    def name(self) -> str:
        return str(self.metadata.get("general.name", self.path.stem))

    @property
    def block_count(self) -> int:
        return int(self.arch_value("block_count", 0))

    @property
    def context_length(self) -> int:
        return int(self.arch_value("context_length", 0))

    @property
    def embedding_length(self) -> int:
        return int(self.arch_value("embedding_length", 0))

    @property
    def head_count(self) -> int:
        return _first_int(self.arch_value("attention.head_count", 0))

    def head_count_kv_per_layer(self) -> list[int]:
        """KV heads for each block (some models vary them per layer)."""
        raw = self.arch_value("attention.head_count_kv", self.head_count)
        if isinstance(raw, list):
            return [int(v) for v in raw]
        return [int(raw)] * self.block_count

    @property
    def head_count_kv(self) -> int:
        per_layer = self.head_count_kv_per_layer()
        return max(per_layer) if per_layer else 0

    @property
    def key_length(self) -> int:
        default = self.embedding_length // self.head_count if self.head_count else 0
        return int(self.arch_value("attention.key_length", default))

    @property
    def value_length(self) -> int:
        default = self.embedding_length // self.head_count if self.head_count else 0
        return int(self.arch_value("attention.value_length", default))

    @property
    def sliding_window(self) -> int | None:
        value = self.arch_value("attention.sliding_window")
        return int(value) if value else None

    def sliding_window_layers(self) -> list[bool]:
        """Which blocks use the sliding window (True) rather than full attention."""
        if not self.sliding_window:
            return [False] * self.block_count
        pattern = self.arch_value("attention.sliding_window_pattern")
        if isinstance(pattern, list):
            return [bool(v) for v in pattern][: self.block_count]
        # Gemma 3 style: every n-th layer is global, the others use the window.
        period = int(pattern) if pattern else _DEFAULT_SWA_PERIOD.get(self.architecture, 0)
        if period <= 0:
            return [True] * self.block_count
        return [(i + 1) % period != 0 for i in range(self.block_count)]

    @property
    def vocab_size(self) -> int:
        tokens = self.skipped_arrays.get("tokenizer.ggml.tokens")
        if tokens:
            return tokens
        kept = self.metadata.get("tokenizer.ggml.tokens")
        if isinstance(kept, list):
            return len(kept)
        return int(self.arch_value("vocab_size", 0))

    @property
    def file_type(self) -> str:
        raw = self.metadata.get("general.file_type")
        if raw is None:
            return "unknown"
        return FILE_TYPE_NAMES.get(int(raw), f"type {raw}")

    @property
    def has_chat_template(self) -> bool:
        return "tokenizer.chat_template" in self.metadata

    # --- tensor groups the offload planner counts ---
    def block_bytes(self) -> list[int]:
        """Weight bytes of each repeating block blk.<i>.*"""
        sizes = [0] * self.block_count
        for tensor in self.tensors:
            index = _block_index(tensor.name)
            if index is not None and index < len(sizes):
                sizes[index] += tensor.n_bytes
        return sizes

    def output_bytes(self) -> int:
        """The output head and final norm; a tied head reuses token_embd.weight."""
        by_name = {t.name: t.n_bytes for t in self.tensors}
        head = by_name.get("output.weight", by_name.get("token_embd.weight", 0))
        return head + by_name.get("output_norm.weight", 0) + by_name.get("output_norm.bias", 0)

    @property
    def output_is_tied(self) -> bool:
        return not any(t.name == "output.weight" for t in self.tensors)

    @property
    def parameter_count(self) -> int:
        """Weights in the file, counted from tensor shapes (what a model can do scales with it)."""
        return sum(math.prod(t.shape) for t in self.tensors)

    def total_tensor_bytes(self) -> int:
        return sum(t.n_bytes for t in self.tensors)

    def summary(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "name": self.name,
            "architecture": self.architecture,
            "quantization": self.file_type,
            "size_bytes": self.file_size,
            "parameters": self.parameter_count,
            "layers": self.block_count,
            "context_length": self.context_length,
            "embedding_length": self.embedding_length,
            "head_count": self.head_count,
            "head_count_kv": self.head_count_kv,
            "key_length": self.key_length,
            "value_length": self.value_length,
            "sliding_window": self.sliding_window,
            "vocab_size": self.vocab_size,
            "tensor_count": len(self.tensors),
            "chat_template": self.has_chat_template,
        }


_DEFAULT_SWA_PERIOD = {"gemma3": 6, "gemma3n": 5}


def _first_int(value: Any) -> int:
    if isinstance(value, list):
        return int(max(value)) if value else 0
    return int(value)


def _block_index(name: str) -> int | None:
    if not name.startswith("blk."):
        return None
    part = name.split(".", 2)[1]
    return int(part) if part.isdigit() else None


def tensor_nbytes(shape: tuple[int, ...], ggml_type: int) -> int | None:
    """Bytes of a tensor of this shape and type, or None for a type we do not know."""
    sizes = GGML_TYPE_SIZES.get(ggml_type)
    if sizes is None:
        return None
    block_elems, block_bytes = sizes
    n_elems = 1
    for dim in shape:
        n_elems *= dim
    return n_elems // block_elems * block_bytes


class _Reader:
    """Bounds-checked little-endian reads; any overrun means the file is damaged."""

    def __init__(self, handle: BinaryIO, size: int, path: Path) -> None:
        self.handle, self.size, self.path = handle, size, path

    def read(self, n: int) -> bytes:
        data = self.handle.read(n)
        if len(data) != n:
            raise GGUFError(f"{self.path}: the file ends inside its header (truncated download?)")
        return data

    def scalar(self, fmt: str) -> Any:
        return struct.unpack(fmt, self.read(struct.calcsize(fmt)))[0]

    def string(self) -> str:
        length = self.scalar("<Q")
        if length > self.size:
            raise GGUFError(f"{self.path}: a string length of {length} bytes is impossible here")
        return self.read(length).decode("utf-8", errors="replace")

    def skip(self, n: int) -> None:
        if self.handle.tell() + n > self.size:
            raise GGUFError(f"{self.path}: the file ends inside its header (truncated download?)")
        self.handle.seek(n, 1)

    def value(self, vtype: int, key: str, skipped: dict[str, int]) -> Any:
        if vtype in _SCALAR_FORMATS:
            return self.scalar(_SCALAR_FORMATS[vtype])
        if vtype == _STRING:
            return self.string()
        if vtype == _ARRAY:
            item_type = self.scalar("<I")
            count = self.scalar("<Q")
            if count > self.size:
                raise GGUFError(f"{self.path}: array '{key}' claims {count} items")
            if count > _MAX_KEPT_ARRAY:
                skipped[key] = count
                self.skip_array(item_type, count, key)
                return None
            return [self.value(item_type, key, skipped) for _ in range(count)]
        raise GGUFError(f"{self.path}: unknown metadata type {vtype} for '{key}'")

    def skip_array(self, item_type: int, count: int, key: str) -> None:
        if item_type in _SCALAR_FORMATS:
            self.skip(struct.calcsize(_SCALAR_FORMATS[item_type]) * count)
        elif item_type == _STRING:
            for _ in range(count):
                self.skip(self.scalar("<Q"))
        else:
            raise GGUFError(f"{self.path}: unsupported nested array in '{key}'")


def read_gguf(path: str | Path) -> GGUFInfo:
    """Parse the header and tensor table of a GGUF file; raise GGUFError with a clear reason."""
    path = Path(path).expanduser()
    if not path.exists():
        raise GGUFError(f"Model file not found: {path}")
    if not path.is_file():
        raise GGUFError(f"Not a file: {path}")
    size = path.stat().st_size
    with path.open("rb") as handle:
        reader = _Reader(handle, size, path)
        if size < 24 or handle.read(4) != GGUF_MAGIC:
            raise GGUFError(f"{path} is not a GGUF model file (its first bytes are not 'GGUF')")
        version = reader.scalar("<I")
        if version not in (2, 3):
            raise GGUFError(f"{path}: GGUF version {version} is not supported (expected 2 or 3)")
        n_tensors = reader.scalar("<Q")
        n_kv = reader.scalar("<Q")
        if n_tensors > size or n_kv > size:
            raise GGUFError(f"{path}: the header's counts are impossible; the file is damaged")
        metadata: dict[str, Any] = {}
        skipped: dict[str, int] = {}
        for _ in range(n_kv):
            key = reader.string()
            vtype = reader.scalar("<I")
            value = reader.value(vtype, key, skipped)
            if value is not None:
                metadata[key] = value
        raw_tensors = []
        for _ in range(n_tensors):
            name = reader.string()
            n_dims = reader.scalar("<I")
            if n_dims > 8:
                raise GGUFError(f"{path}: tensor '{name}' has {n_dims} dimensions; damaged file")
            shape = tuple(reader.scalar("<Q") for _ in range(n_dims))
            raw_tensors.append((name, shape, reader.scalar("<I"), reader.scalar("<Q")))
        alignment = int(metadata.get("general.alignment", DEFAULT_ALIGNMENT)) or DEFAULT_ALIGNMENT
        header_end = handle.tell()
    data_offset = (header_end + alignment - 1) // alignment * alignment
    tensors = _tensor_table(raw_tensors, data_offset, size)
    data_end = max((data_offset + t.offset + t.n_bytes for t in tensors), default=data_offset)
    if data_end > size:
        missing = data_end - size
        raise GGUFError(
            f"{path} is truncated: its tensors need {data_end:,} bytes but the file has "
            f"{size:,} ({missing:,} missing). Download it again."
        )
    return GGUFInfo(path, size, version, metadata, tensors, data_offset, skipped)


def _tensor_table(
    raw: list[tuple[str, tuple[int, ...], int, int]], data_offset: int, file_size: int
) -> list[TensorInfo]:
    # Unknown types take their size from the gap to the next tensor (padding included).
    order = sorted(raw, key=lambda item: item[3])
    next_offset = {
        item[0]: (order[i + 1][3] if i + 1 < len(order) else file_size - data_offset)
        for i, item in enumerate(order)
    }
    tensors = []
    for name, shape, ggml_type, offset in raw:
        n_bytes = tensor_nbytes(shape, ggml_type)
        if n_bytes is None:
            n_bytes = max(0, next_offset[name] - offset)
        tensors.append(TensorInfo(name, shape, ggml_type, offset, n_bytes))
    return tensors
