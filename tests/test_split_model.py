"""A model a user has as llama.cpp split files: found, verified file by file, planned as a whole."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from models.catalog import CatalogEntry, SplitFile
from models.download import DownloadError, download_model
from models.gguf_reader import read_gguf
from models.gguf_split import read_model_gguf, split_siblings
from models.model_cache import MODELS_DIR_ENV, cached_model_path
from tests.gguf_builder import write_gguf

N_EMBD = 64


def _blocks(first: int, last: int) -> list[tuple[str, tuple[int, ...], int]]:
    return [(f"blk.{i}.ffn_up.weight", (N_EMBD, 256), 0) for i in range(first, last)]


def _split_files(folder: Path) -> list[Path]:
    """Four blocks split 3 + 1 as gguf-split writes them: metadata in the first file only."""
    folder.mkdir(parents=True, exist_ok=True)
    meta = {
        "general.architecture": "llama", "llama.block_count": 4, "llama.embedding_length": N_EMBD,
        "llama.attention.head_count": 4, "split.no": 0, "split.count": 2, "split.tensors.count": 6,
    }  # fmt: skip
    first = write_gguf(
        folder / "coder-00001-of-00002.gguf", meta, [("token_embd.weight", (N_EMBD, 100), 0), *_blocks(0, 3)]
    )
    second = write_gguf(
        folder / "coder-00002-of-00002.gguf",
        {"split.no": 1, "split.count": 2, "split.tensors.count": 6},
        [*_blocks(3, 4), ("output.weight", (N_EMBD, 100), 0)],
    )
    for path in (first, second):  # real bytes, so the hashes below mean something
        data = bytearray(path.read_bytes())
        data[-16:] = path.name.encode()[:16]
        path.write_bytes(bytes(data))
    return [first, second]


def _entry(parts: list[Path]) -> CatalogEntry:
    split = tuple(
        SplitFile(p.name, p.stat().st_size, hashlib.sha256(p.read_bytes()).hexdigest()) for p in parts
    )
    return CatalogEntry(
        "split-coder", "Split coder", "Qwen/Split-Coder-GGUF", "coder.gguf", 10**6, "Apache-2.0", 8192,
        "test", sha256="0" * 64, split=split,
    )  # fmt: skip


@pytest.fixture
def models_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(MODELS_DIR_ENV, str(tmp_path / "models"))
    return tmp_path / "models"


def test_the_whole_set_is_read_as_one_model(tmp_path: Path) -> None:
    first, second = _split_files(tmp_path)
    assert split_siblings(first) == [first, second] and split_siblings(second) is None
    alone, whole = read_gguf(first), read_model_gguf(first)
    assert len(alone.tensors) == 4 and len(whole.tensors) == 6  # the first file holds only its own
    assert whole.block_bytes() == [N_EMBD * 256 * 4] * 4 and not whole.output_is_tied
    assert whole.file_size == first.stat().st_size + second.stat().st_size


def test_a_missing_second_file_is_said(tmp_path: Path) -> None:
    first, second = _split_files(tmp_path)
    second.unlink()
    with pytest.raises(ValueError, match="coder-00002-of-00002.gguf is missing"):
        read_model_gguf(first)


def test_a_split_model_in_the_models_folder_counts_as_installed(models_home: Path) -> None:
    parts = _split_files(models_home)
    entry = _entry(parts)
    assert cached_model_path(entry) == parts[0]
    parts[1].write_bytes(parts[1].read_bytes()[:-1])  # cut short: not complete, not installed
    assert cached_model_path(entry) is None


def test_download_checks_each_split_file_and_deletes_a_wrong_one(models_home: Path) -> None:
    parts = _split_files(models_home)
    entry = _entry(parts)
    assert download_model(entry) == parts[0]  # both hashes right: nothing fetched
    data = bytearray(parts[1].read_bytes())
    data[-1] ^= 1  # same size, one bit differs
    parts[1].write_bytes(bytes(data))
    with pytest.raises(DownloadError, match="coder-00002-of-00002.gguf has SHA-256 .* deleted it"):
        download_model(entry)
    assert parts[0].exists() and not parts[1].exists() and cached_model_path(entry) is None
