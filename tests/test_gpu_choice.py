"""First launch on a GPU: which coder to fetch for the free VRAM, why, and the fetch itself.

NVML is faked at the module seam only (models.vram_probe._load_nvml); the planner, the catalog's
shapes and the download path are the real ones. Nothing is installed in the test's folders, so
every model is planned from its catalog shape.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

import app
import models.catalog as catalog
import models.gpu_choice as gpu_choice
from models.catalog import CatalogEntry, ModelShape, catalog_entry
from models.gguf_reader import read_gguf
from models.gpu_choice import choose_model_to_fetch
from models.model_cache import MODELS_DIR_ENV
from models.model_shapes import shape_info
from models.vram_probe import probe_gpus
from tests.fake_hub_server import FakeHub, point_hub_client_at
from tests.fake_nvml import FakeNVML
from tests.test_hub_download import entry_for

GiB = 2**30


@pytest.fixture(autouse=True)
def nothing_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from huggingface_hub import constants

    monkeypatch.setenv(MODELS_DIR_ENV, str(tmp_path / "models"))
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hf-cache"))


def _gpu(monkeypatch: pytest.MonkeyPatch, free: int, total: int = 12 * GiB) -> None:
    fake = FakeNVML([("NVIDIA GeForce RTX 4070", total, free)])
    monkeypatch.setattr("models.vram_probe._load_nvml", lambda: fake)


def test_8_gb_free_takes_the_7b_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    _gpu(monkeypatch, free=8 * GiB)
    choice = choose_model_to_fetch(probe_gpus(), cuda_build=True)
    assert choice.model_id == "qwen2.5-coder-7b-q4_k_m" and choice.on_gpu
    assert choice.plan.n_gpu_layers == choice.plan.max_layers == 29
    assert choice.plan.n_ctx == 8192 and choice.plan.gpu_bytes_needed + 512 * 2**20 <= 8 * GiB
    assert "RTX 4070 has 8.0 GiB free" in choice.reason and "all 29 layers" in choice.reason
    assert "HumanEval 88.4" in choice.reason


def test_3_gb_free_takes_the_1_5b_and_names_what_did_not_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    _gpu(monkeypatch, free=3 * GiB)
    choice = choose_model_to_fetch(probe_gpus(), cuda_build=True)
    assert choice.model_id == "qwen2.5-coder-1.5b-q4_k_m" and choice.on_gpu
    assert "Qwen2.5-Coder-7B-Instruct Q4_K_M would not fit whole" in choice.reason


def test_2_5_gb_free_takes_the_0_5b_on_the_gpu_without_comparing_it_with_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _gpu(monkeypatch, free=int(2.5 * GiB))
    choice = choose_model_to_fetch(probe_gpus(), cuda_build=True)
    assert choice.model_id == "qwen2.5-coder-0.5b-q4_k_m" and choice.on_gpu
    assert "HumanEval 61.6 published)" in choice.reason and "against" not in choice.reason


def test_the_7b_needs_about_6_gib_so_6_gib_free_is_too_little(monkeypatch: pytest.MonkeyPatch) -> None:
    # Weights 4.4 GB, an 8k f16 KV cache 0.45 GiB, compute 0.6 GiB, CUDA context and margin 1.1 GiB.
    _gpu(monkeypatch, free=6 * GiB)
    assert choose_model_to_fetch(probe_gpus(), cuda_build=True).model_id == "qwen2.5-coder-1.5b-q4_k_m"
    _gpu(monkeypatch, free=int(6.5 * GiB))
    assert choose_model_to_fetch(probe_gpus(), cuda_build=True).model_id == "qwen2.5-coder-7b-q4_k_m"


def test_no_gpu_or_a_cpu_build_keeps_the_0_5b(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("models.vram_probe._load_nvml", lambda: None)
    assert choose_model_to_fetch(probe_gpus(), cuda_build=True).model_id == "qwen2.5-coder-0.5b-q4_k_m"
    _gpu(monkeypatch, free=8 * GiB)
    cpu_build = choose_model_to_fetch(probe_gpus(), cuda_build=False)
    assert cpu_build.model_id == "qwen2.5-coder-0.5b-q4_k_m" and not cpu_build.on_gpu
    assert "CPU-only build" in cpu_build.reason and "CUDA toolkit" in cpu_build.reason


def test_the_shape_estimate_counts_the_whole_file() -> None:
    # The estimate spends every byte of the file on weights (never fewer than the file holds).
    seven = shape_info(catalog_entry("qwen2.5-coder-7b-q4_k_m"))
    assert seven.block_count == 28 and seven.head_count_kv == 4 and not seven.output_is_tied
    assert 0 <= seven.file_size - seven.total_tensor_bytes() < 50 * 2**20


def test_the_shape_estimate_matches_the_real_0_5b_file(monkeypatch: pytest.MonkeyPatch) -> None:
    from models.model_cache import cached_model_path

    monkeypatch.undo()  # the installed coder, not the test's empty folders
    small = catalog_entry("qwen2.5-coder-0.5b-q4_k_m")
    path = cached_model_path(small)
    assert path is not None, "the 0.5B coder must be installed: ./launch.sh test installs it"
    real, estimate = read_gguf(path), shape_info(small)
    assert estimate.output_bytes() == real.output_bytes() and estimate.vocab_size == real.vocab_size
    assert (estimate.block_count, estimate.head_count_kv) == (real.block_count, real.head_count_kv)
    # Blocks carry the header too (tokenizer, 6 MB): a little more than the file's, never less.
    assert 1.0 <= sum(estimate.block_bytes()) / sum(real.block_bytes()) < 1.03


# --- the fetch, as launch.sh runs it: app.py pick-model --fetch -------------------------------------


@pytest.fixture
def test_coder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[tuple[CatalogEntry, FakeHub]]:
    """A small coder, pinned, first in the fetch order, served by a local hub."""

    from tests.gguf_builder import llama_like

    data = llama_like(tmp_path / "coder.gguf", n_layer=2, n_embd=128, n_vocab=300).read_bytes()
    entry = replace(entry_for(data), shape=ModelShape("llama", 2, 128, 4, 2, 128, 300, False))
    monkeypatch.setattr(catalog, "CATALOG", (*catalog.CATALOG, entry))
    monkeypatch.setattr(gpu_choice, "FETCH_PREFERENCE", (entry.id, *gpu_choice.FETCH_PREFERENCE))
    monkeypatch.setattr(gpu_choice, "cuda_build_in_place", lambda: True)
    hub = FakeHub({f"{entry.repo}/{entry.filename}": data}).start()
    point_hub_client_at(monkeypatch, hub.url)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    _gpu(monkeypatch, free=8 * GiB)
    yield entry, hub
    hub.stop()


def test_pick_model_fetches_the_choice_and_verifies_it(test_coder, tmp_path: Path, capsys) -> None:
    entry, hub = test_coder
    assert app.main(["pick-model", "--fetch"]) == 0
    out = capsys.readouterr().out
    assert "Model for this machine: Test coder." in out and "fits whole" in out
    assert "Fetched and verified (SHA-256)" in out
    assert (tmp_path / "models" / entry.filename).stat().st_size == entry.size_bytes
    assert app.main(["pick-model", "--fetch"]) == 0 and "is installed" in capsys.readouterr().out
    assert len(hub.gets()) == 1  # the second launch found it


def test_no_fetch_only_says_which_and_how_to_fetch_later(test_coder, capsys) -> None:
    entry, hub = test_coder
    assert app.main(["pick-model", "--fetch", "--no-fetch"]) == 0
    out = capsys.readouterr().out
    assert "Not fetched." in out and f"python app.py download {entry.id}" in out and hub.file_requests() == []


def test_no_network_leaves_the_installed_coder_and_says_how_to_fetch_later(
    test_coder, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:

    entry, hub = test_coder
    point_hub_client_at(monkeypatch, "http://127.0.0.1:9")  # refused at once
    assert app.main(["pick-model", "--fetch"]) == 1
    err = capsys.readouterr().err
    assert "Could not fetch Test coder: cannot reach 127.0.0.1" in err
    assert f"python app.py download {entry.id}" in err and "best installed coder" in err


def test_the_model_tab_button_offers_the_same_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    from gui.model_panel_data import best_coder_for_machine

    _gpu(monkeypatch, free=8 * GiB)
    monkeypatch.setattr(gpu_choice, "cuda_build_in_place", lambda: True)
    model_id, why = best_coder_for_machine()
    assert model_id == "qwen2.5-coder-7b-q4_k_m"
    assert why.startswith("**Best coder for this machine: Qwen2.5-Coder-7B-Instruct Q4_K_M.**")
    assert "all 29 layers" in why
