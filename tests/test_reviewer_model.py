"""--reviewer-model: saved with the settings, both models pinned to one plan, doctor says where each goes."""

from __future__ import annotations

from pathlib import Path

import pytest

import app
from gui.user_settings import UserSettings, load_settings, save_settings
from models.doctor import _pair_lines, _pair_state
from models.engine import EngineSettings
from models.vram_probe import GpuState
from tests.fake_nvml import gpu_state
from tests.gguf_builder import llama_like

NO_GPU = GpuState("no_driver", "No NVIDIA driver found")


@pytest.fixture
def two_models(tmp_path: Path) -> tuple[Path, Path]:
    return llama_like(tmp_path / "coder.gguf"), llama_like(tmp_path / "reviewer.gguf", n_layer=6)


def test_the_flag_is_saved_with_the_settings(tmp_path: Path) -> None:
    args = app.build_parser().parse_args(["--reviewer-model", "qwen2.5-coder-1.5b-q4_k_m"])
    assert args.reviewer_model == "qwen2.5-coder-1.5b-q4_k_m"
    path = save_settings(UserSettings(reviewer_model=args.reviewer_model), tmp_path / "settings.json")
    assert load_settings(path)[0].reviewer_model == "qwen2.5-coder-1.5b-q4_k_m"
    assert load_settings(tmp_path / "none.json")[0].reviewer_model == ""  # default: one model for all


def test_the_ide_gets_a_reviewer_host_pinned_to_the_joint_plan(
    two_models: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    coder, reviewer = two_models
    monkeypatch.setattr("models.vram_probe._load_nvml", lambda: None)  # the CPU path
    settings = UserSettings(model=str(coder), reviewer_model=str(reviewer))
    host, _, _ = app._local_host(settings)
    assert host.label == str(coder) and host.reviewer is not None and host.reviewer.label == str(reviewer)
    assert (host.settings.n_gpu_layers, host.settings.n_ctx) == (0, 2048)  # pinned, not left to each load
    assert (host.reviewer.settings.n_gpu_layers, host.reviewer.settings.n_ctx) == (0, 2048)
    out = capsys.readouterr().out
    assert "Two models, one plan:" in out and "both models run on the CPU" in out and "both load" in out
    assert host.reviewer.status().state == "idle"  # it loads once the coder has


def test_an_unusable_reviewer_model_leaves_one_model_for_every_role(
    two_models: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    coder, _ = two_models
    host, _, _ = app._local_host(UserSettings(model=str(coder), reviewer_model=str(tmp_path / "gone.gguf")))
    assert host.reviewer is None and host.reviewer_engine is None
    assert "reviewer model not used" in capsys.readouterr().err


def test_doctor_shows_the_pair_plan(two_models: tuple[Path, Path]) -> None:
    coder, reviewer = two_models
    pair = _pair_state(coder, str(reviewer), EngineSettings(n_ctx=1024), gpu_state(free=8 * 2**30))
    assert pair["both_whole_on_gpu"] and pair["reviewer"]["terms"]["cuda_context"] == 0
    assert pair["coder"]["n_ctx"] == pair["reviewer"]["n_ctx"] == 1024
    text = "\n".join(_pair_lines(pair))
    assert text.startswith(f"Reviewer model {reviewer}, planned with the coder:")
    assert "one CUDA context" in text and "Reviewer synthetic: all 7 layers on the GPU" in text
    missing = _pair_lines(_pair_state(coder, "nowhere.gguf", EngineSettings(), NO_GPU))
    assert missing[0].startswith("Reviewer model nowhere.gguf: Model file not found")
