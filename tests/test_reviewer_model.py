"""--reviewer-model: saved with the settings, both models pinned to one plan, doctor says where each goes."""

from __future__ import annotations

from pathlib import Path

import pytest

import app
from gui.user_settings import UserSettings, load_settings, save_settings
from models.chat_engine import EngineSettings
from models.doctor import _pair_lines, _pair_state
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


def test_ask_plans_the_reviewer_model_with_the_coder_and_hands_both_to_the_crew(
    two_models: tuple[Path, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    coder, reviewer = two_models
    monkeypatch.setattr("models.vram_probe._load_nvml", lambda: None)  # the CPU path
    seen: dict[str, object] = {}
    monkeypatch.setattr("agents.headless.run_ask", lambda request, workspace, **kw: seen.update(kw) or 0)
    argv = ["ask", "Add sub.", "--model", str(coder), "--reviewer-model", str(reviewer)]
    assert app.main([*argv, "--workspace", str(tmp_path)]) == 0
    coder_engine, reviewer_engine = seen["engine_factory"](), seen["reviewer_factory"]()
    assert Path(coder_engine.model_path) == coder and Path(reviewer_engine.model_path) == reviewer
    assert reviewer_engine.settings.n_ctx == coder_engine.settings.n_ctx == 2048  # the joint plan's
    assert "Two models, one plan:" in capsys.readouterr().out
    del seen["reviewer_factory"]
    assert app.main(["ask", "Add sub.", "--model", str(coder), "--workspace", str(tmp_path)]) == 0
    assert seen["reviewer_factory"] is None  # without the flag: one model for every role


def test_ask_runs_the_reviewers_turns_on_the_reviewer_engine(tmp_path: Path) -> None:
    from agents.headless import run_ask
    from agents.run.runner import CrewSettings
    from tests.crew_script import checks, files
    from tests.scripted_engine import ScriptedEngine, by_agent

    coder = ScriptedEngine(by_agent(coder=[files(("calc.py", "def add(a, b):\n    return a + b\n"))]))
    reviewer = ScriptedEngine(by_agent(reviewer=[checks("assert add(2, 3) == 5")]))
    code = run_ask(
        "Write calc.py with add(a, b) that returns the sum.",
        tmp_path,
        engine_factory=lambda: coder,
        reviewer_factory=lambda: reviewer,
        crew=CrewSettings(rounds=1),
        as_json=False,
    )
    assert code == 0
    assert [c.agent for c in coder.calls] == ["coder"] and [c.agent for c in reviewer.calls] == ["reviewer"]
