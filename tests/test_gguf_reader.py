"""The GGUF reader on the real bundled file and on synthetic and damaged files."""

from pathlib import Path

import pytest

from models.gguf_reader import GGUFError, read_gguf
from tests.gguf_builder import llama_like


def test_bundled_model_shape(bundled_model: Path) -> None:
    info = read_gguf(bundled_model)
    assert info.architecture == "llama"
    assert info.file_type == "Q4_1"
    assert (info.block_count, info.context_length, info.embedding_length) == (30, 8192, 576)
    assert (info.head_count, info.head_count_kv, info.key_length, info.value_length) == (9, 3, 64, 64)
    assert info.sliding_window is None
    assert info.vocab_size == 49152
    assert info.has_chat_template
    assert len(info.tensors) == 272


def test_bundled_tensor_sizes_add_up_to_the_file(bundled_model: Path) -> None:
    info = read_gguf(bundled_model)
    # Every byte after the header belongs to a tensor: sizes computed from type and shape are exact.
    assert info.total_tensor_bytes() == info.file_size - info.data_offset
    embd = next(t for t in info.tensors if t.name == "token_embd.weight")
    assert embd.shape == (576, 49152) and embd.n_bytes == 576 * 49152 // 32 * 34  # Q8_0
    ffn = next(t for t in info.tensors if t.name == "blk.7.ffn_down.weight")
    assert ffn.n_bytes == 1536 * 576 // 32 * 20  # Q4_1


def test_bundled_block_and_output_groups(bundled_model: Path) -> None:
    info = read_gguf(bundled_model)
    # Per block: 2 norms (576 f32), q/o 576x576, k/v 576x192, gate/up/down 576x1536, all Q4_1.
    block = 2 * 576 * 4 + (2 * 576 * 576 + 2 * 576 * 192 + 3 * 576 * 1536) // 32 * 20
    assert info.block_bytes() == [block] * 30
    assert info.output_is_tied  # SmolLM2 reuses the embedding as its head
    assert info.output_bytes() == 576 * 49152 // 32 * 34 + 576 * 4


def test_header_read_is_cheap_for_huge_sparse_file(tmp_path: Path) -> None:
    path = llama_like(tmp_path / "big.gguf", n_layer=2, n_embd=16384, n_vocab=200_000)
    info = read_gguf(path)
    assert info.file_size > 10 * 2**30  # claims tens of GiB, stored sparse
    assert info.total_tensor_bytes() == info.file_size - info.data_offset


def test_per_layer_kv_heads_and_sliding_window(tmp_path: Path) -> None:
    path = llama_like(tmp_path / "swa.gguf", n_layer=6, arch="gemma3",
                      extra={"gemma3.attention.head_count_kv": [2, 2, 2, 2, 2, 1],
                             "gemma3.attention.sliding_window": 512})  # fmt: skip
    info = read_gguf(path)
    assert info.head_count_kv_per_layer() == [2, 2, 2, 2, 2, 1]
    assert info.sliding_window == 512
    assert info.sliding_window_layers() == [True] * 5 + [False]  # every 6th layer is global


def test_missing_file() -> None:
    with pytest.raises(GGUFError, match="not found"):
        read_gguf("/nonexistent/model.gguf")


def test_not_gguf(tmp_path: Path) -> None:
    bogus = tmp_path / "model.gguf"
    bogus.write_text("this is a text file pretending to be a model" * 10)
    with pytest.raises(GGUFError, match="not a GGUF"):
        read_gguf(bogus)


def test_truncated_data(tmp_path: Path) -> None:
    path = llama_like(tmp_path / "cut.gguf", truncate_by=1000)
    with pytest.raises(GGUFError, match="truncated"):
        read_gguf(path)


def test_truncated_header(bundled_model: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(bundled_model.read_bytes()[:300_000])  # ends inside the token list
    with pytest.raises(GGUFError, match="truncated"):
        read_gguf(cut)


def test_truncated_bundled_data(bundled_model: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(bundled_model.read_bytes()[:50_000_000])
    with pytest.raises(GGUFError, match="missing"):
        read_gguf(cut)
