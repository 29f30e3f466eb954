"""The real huggingface_hub download path against a local server that answers like the hub.

A small synthetic GGUF stands for the model; a catalog entry pinned to its hash is made here. The
hub client is the installed huggingface_hub (metadata HEAD, streamed GET, Range resume); only the
endpoint is ours (HF_ENDPOINT), so no test touches the internet.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from models.catalog import CatalogEntry
from models.download import DownloadError, download_model
from models.hub_download import incomplete_path
from models.model_cache import MODELS_DIR_ENV, cached_model_path
from tests.fake_hub_server import FakeHub, point_hub_client_at
from tests.gguf_builder import llama_like

REPO = "Qwen/Test-Coder-GGUF"
FILENAME = "test-coder-q4_k_m.gguf"


@pytest.fixture(scope="module")
def model_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = llama_like(tmp_path_factory.mktemp("gguf") / FILENAME, n_layer=2, n_embd=128, n_vocab=300)
    data = bytearray(path.read_bytes())
    data[-200:] = bytes(range(200))  # not all zeros: a resume at the wrong offset changes the hash
    return bytes(data)


def entry_for(data: bytes, filename: str = FILENAME) -> CatalogEntry:
    return CatalogEntry(
        "test-coder", "Test coder", REPO, filename, len(data), "Apache-2.0", 8192, "test",
        sha256=hashlib.sha256(data).hexdigest(),
    )  # fmt: skip


@pytest.fixture
def hub(model_bytes: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeHub]:
    from huggingface_hub import constants

    server = FakeHub({f"{REPO}/{FILENAME}": model_bytes}).start()
    point_hub_client_at(monkeypatch, server.url)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hf-cache"))
    monkeypatch.setattr(constants, "DOWNLOAD_CHUNK_SIZE", 4096)  # progress per piece, as 10 MB on real files
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    monkeypatch.setenv(MODELS_DIR_ENV, str(tmp_path / "models"))
    yield server
    server.stop()


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*")) if folder.exists() else []


def test_a_complete_download_is_verified_and_then_cached(
    hub: FakeHub, model_bytes: bytes, tmp_path: Path
) -> None:
    entry = entry_for(model_bytes)
    path = download_model(entry)
    assert path == tmp_path / "models" / FILENAME and path.read_bytes() == model_bytes
    assert _files(tmp_path / "models") == [FILENAME]
    assert [s.method for s in hub.file_requests()] == ["HEAD", "GET"] and hub.gets()[0].range is None
    assert cached_model_path(entry) == path
    assert download_model(entry) == path and len(hub.file_requests()) == 2  # found, not fetched again


def test_a_cut_connection_is_resumed_from_where_it_stopped(hub: FakeHub, model_bytes: bytes) -> None:
    hub.cut_after = 40_000
    path = download_model(entry_for(model_bytes))
    assert path.read_bytes() == model_bytes
    first, again = hub.gets()
    assert first.range is None
    resumed_at = int(again.range.removeprefix("bytes=").removesuffix("-"))
    assert 0 < resumed_at <= 40_000  # only what was not written yet is asked again


def test_an_interrupted_run_keeps_its_bytes_and_the_next_run_resumes(
    hub: FakeHub, model_bytes: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    entry, seen = entry_for(model_bytes), []

    def stop_after_some(done: int, total: int) -> None:
        seen.append(done)
        if done >= 20_000:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        download_model(entry, on_progress=stop_after_some)
    kept = incomplete_path(entry).stat().st_size
    assert 0 < kept < len(model_bytes) and kept % 4096 == 0  # whole pieces written before the stop
    assert f"{kept:,} bytes are kept" in capsys.readouterr().err
    assert download_model(entry).read_bytes() == model_bytes
    assert hub.gets()[-1].range == f"bytes={kept}-"
    assert not incomplete_path(entry).exists()


def test_a_wrong_hash_is_refused_and_the_file_deleted(
    hub: FakeHub, model_bytes: bytes, tmp_path: Path
) -> None:
    entry = entry_for(model_bytes)
    tampered = model_bytes[:-1] + bytes([model_bytes[-1] ^ 1])  # same size, one bit differs
    hub.files[f"{REPO}/{FILENAME}"] = tampered
    with pytest.raises(
        DownloadError, match=f"has SHA-256 [0-9a-f]{{64}}, not the expected {entry.sha256}; deleted it"
    ):
        download_model(entry)
    assert _files(tmp_path / "models") == [] and cached_model_path(entry) is None


def test_a_size_other_than_the_pinned_one_is_refused_before_downloading(
    hub: FakeHub, model_bytes: bytes, tmp_path: Path
) -> None:
    hub.files[f"{REPO}/{FILENAME}"] = model_bytes + b"more"
    with pytest.raises(DownloadError, match="not the [0-9,]+ of the pinned file; nothing was downloaded"):
        download_model(entry_for(model_bytes))
    assert hub.gets() == [] and _files(tmp_path / "models") == []


def test_a_missing_file_is_a_plain_404(hub: FakeHub, model_bytes: bytes, tmp_path: Path) -> None:
    with pytest.raises(DownloadError) as failure:
        download_model(entry_for(model_bytes, filename="renamed.gguf"))
    message = str(failure.value)
    assert "The hub has no renamed.gguf in Qwen/Test-Coder-GGUF" in message and "404" in message
    assert "\n" not in message and _files(tmp_path / "models") == []


def test_a_slow_link_reports_progress_as_bytes_arrive(hub: FakeHub, model_bytes: bytes) -> None:
    hub.delay_s = 0.004
    seen: list[tuple[int, int]] = []
    download_model(entry_for(model_bytes), on_progress=lambda done, total: seen.append((done, total)))
    assert len(seen) >= len(model_bytes) // 8192  # many steps, not one at the end
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert seen[-1] == (len(model_bytes), len(model_bytes)) and {t for _, t in seen} == {len(model_bytes)}
