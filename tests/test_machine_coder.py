"""The coder for a machine without a usable GPU, by measurement: the largest pinned coder that fits
free memory and decodes at least about 6 tokens/s here. The probe is faked (a bandwidth); the
catalog's shapes, the planner and the words are the real ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import app
from models.cpu_coder import MIN_TOKENS_PER_S, choose_cpu_coder
from models.default_model import choose_default_model
from models.machine_coder import choose_coder_for_machine
from models.speed_probe import FAKE_ENV, SpeedProbe
from models.vram_probe import GpuState
from tests.fake_nvml import gpu_state

SMALL, LARGE, SEVEN = "qwen2.5-coder-0.5b-q4_k_m", "qwen2.5-coder-1.5b-q4_k_m", "qwen2.5-coder-7b-q4_k_m"
NO_GPU = GpuState("no_driver", "No NVIDIA driver found")
GiB = 2**30
PLENTY = 20 * GiB


def probe(gbps: float) -> SpeedProbe:
    """What a decode of the 0.5B measures on a machine that reads weights at `gbps` GB/s."""
    return SpeedProbe(gbps * 1e9, gbps * 1e9 / 398e6, SMALL, 398_000_000, 1, 2.1, "2026-11-28T22:00:00+00:00")


def test_this_2_core_machine_takes_the_1_5b_and_says_why() -> None:
    # 45 tokens/s on the 0.5B here: about 18 on the 1.5B, 4 on the 7B.
    choice = choose_cpu_coder(probe(17.9), PLENTY)
    assert choice.model_id == LARGE and choice.fallbacks == [SMALL]
    fits = {f.model_id: f for f in choice.fits}
    assert 17 < fits[LARGE].tokens_per_s < 19 and fits[SEVEN].tokens_per_s < MIN_TOKENS_PER_S
    assert "about 18.2 tokens/s" in choice.reason and "at least 6 wanted" in choice.reason
    assert "45.0 tokens/s on qwen2.5-coder-0.5b-q4_k_m" in choice.reason
    assert "7B-Instruct Q4_K_M: about 4.1 tokens/s (under the 6 wanted)" in choice.reason


def test_a_machine_too_slow_for_the_1_5b_keeps_the_0_5b() -> None:
    # 3 GB/s: the 1.5B would decode about 3 tokens/s, the 0.5B about 7.5.
    choice = choose_cpu_coder(probe(3.0), PLENTY)
    assert choice.model_id == SMALL and choice.fallbacks == []
    assert "1.5B-Instruct Q4_K_M: about 3.0 tokens/s (under the 6 wanted)" in choice.reason


def test_a_fast_machine_with_little_free_memory_keeps_the_0_5b() -> None:
    choice = choose_cpu_coder(probe(60.0), int(1.2 * GiB))
    assert choice.model_id == SMALL
    assert "1.5B-Instruct Q4_K_M: about 60.8 tokens/s (needs 1.6 GiB of memory" in choice.reason
    assert "of memory, 1.2 GiB free)" in choice.reason
    roomy = choose_cpu_coder(probe(60.0), PLENTY)
    assert roomy.model_id == SEVEN and roomy.fallbacks == [LARGE, SMALL]


def test_no_measurement_keeps_the_0_5b_and_says_so() -> None:
    choice = choose_cpu_coder(None, PLENTY)
    assert choice.model_id == SMALL and "could not be measured" in choice.reason


def test_a_gpu_that_fits_a_coder_decides_without_the_probe() -> None:
    def never() -> SpeedProbe:
        raise AssertionError("probed on a GPU")

    choice = choose_coder_for_machine(gpu_state(free=8 * GiB), True, never, PLENTY)
    assert choice.on_gpu and choice.model_id == SEVEN and choice.cpu is None


def test_a_cpu_build_on_a_gpu_machine_is_chosen_for_by_the_cpu() -> None:
    choice = choose_coder_for_machine(gpu_state(free=8 * GiB), False, lambda: probe(17.9), PLENTY)
    assert not choice.on_gpu and choice.model_id == LARGE and "CPU-only build" in choice.reason
    no_gpu = choose_coder_for_machine(NO_GPU, True, lambda: probe(17.9), PLENTY)
    assert no_gpu.model_id == LARGE and no_gpu.reason.startswith("No NVIDIA driver found: the CPU runs")
    said = GpuState("no_driver", "No NVIDIA driver found (no library): running on the CPU")
    assert choose_coder_for_machine(said, True, lambda: probe(17.9), PLENTY).reason.startswith(
        "No NVIDIA driver found (no library): running on the CPU. Decoding here"
    )


# --- the default among installed coders ----------------------------------------------------------


def _installed(files: dict[str, Path]):
    return lambda model_id: files.get(model_id)


def test_the_default_is_the_1_5b_when_installed_and_fast_enough(bundled_model: Path) -> None:
    files = {SMALL: bundled_model, LARGE: bundled_model}
    choice = choose_default_model(NO_GPU, _installed(files), lambda: probe(17.9), lambda: PLENTY)
    assert choice.model_id == LARGE and "no GPU" in choice.reason and "tokens/s" in choice.reason
    assert "largest installed coder" in choice.reason


def test_the_default_stays_the_0_5b_where_the_1_5b_would_decode_too_slowly(bundled_model: Path) -> None:
    files = {SMALL: bundled_model, LARGE: bundled_model}
    choice = choose_default_model(NO_GPU, _installed(files), lambda: probe(3.0), lambda: PLENTY)
    assert choice.model_id == SMALL and "under the 6 wanted" in choice.reason


def test_one_installed_coder_is_used_without_measuring(bundled_model: Path) -> None:
    def never() -> SpeedProbe:
        raise AssertionError("measured with one coder to choose from")

    choice = choose_default_model(NO_GPU, _installed({SMALL: bundled_model}), never, lambda: PLENTY)
    assert choice.model_id == SMALL and "no GPU" in choice.reason


# --- doctor, pick-model, the Model tab -----------------------------------------------------------


@pytest.fixture
def no_gpu_here(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("models.vram_probe._load_nvml", lambda: None)
    for where in ("models.memory", "models.doctor", "gui.model_panel_data"):
        monkeypatch.setattr(f"{where}.available_ram_bytes", lambda: PLENTY)
    monkeypatch.setenv(FAKE_ENV, "17.9")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # no saved model choice


def test_doctor_shows_the_probe_and_the_coder_for_the_machine(no_gpu_here: None) -> None:
    from models.chat_engine import EngineSettings
    from models.doctor import doctor_report, format_doctor_text

    report = doctor_report("smollm2-135m", EngineSettings())
    assert report["speed_probe"]["source"] == "environment" and report["speed_probe"]["bytes_per_s"] == 17.9e9
    best = report["coder_for_machine"]
    assert best["id"] == LARGE and not best["on_gpu"]
    speeds = {c["id"]: c["estimated_tokens_per_s"] for c in best["cpu"]["candidates"]}
    assert speeds[SMALL] > speeds[LARGE] > MIN_TOKENS_PER_S > speeds[SEVEN]
    text = format_doctor_text(report)
    assert "Decode speed: 17.9 GB/s of weights" in text
    assert f"Coder for this machine: {LARGE}" in text


def test_pick_model_names_the_1_5b_on_this_cpu(no_gpu_here: None, capsys: pytest.CaptureFixture) -> None:
    assert app.main(["pick-model", "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said["id"] == LARGE and said["fallbacks"] == [SMALL] and said["cpu"]["min_tokens_per_s"] == 6.0


def test_a_fetch_that_fails_falls_back_to_the_smaller_coder(
    no_gpu_here: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    from models.download import DownloadError

    monkeypatch.setenv("LOCALCREW_MODELS_DIR", str(tmp_path / "models"))
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "hf"))
    asked: list[str] = []

    def fake_download(entry, **_):  # noqa: ANN001, ANN003, ANN202
        asked.append(entry.id)
        if entry.id == LARGE:
            raise DownloadError("no network", reason="no network")
        return tmp_path / entry.filename

    monkeypatch.setattr("models.download.download_model", fake_download)
    assert app.main(["pick-model", "--fetch"]) == 0
    out = capsys.readouterr()
    assert asked == [LARGE, SMALL]
    assert "Could not fetch Qwen2.5-Coder-1.5B-Instruct Q4_K_M: no network" in out.err
    assert "Fetched and verified" in out.out


def test_a_saved_choice_wins_and_nothing_is_fetched(
    no_gpu_here: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    from gui.user_settings import UserSettings, save_settings

    monkeypatch.setenv("LOCALCREW_MODELS_DIR", str(tmp_path / "models"))
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "hf"))
    save_settings(UserSettings(model=SMALL))

    def no_download(entry, **_):  # noqa: ANN001, ANN003, ANN202
        raise AssertionError("fetched over the user's choice")

    monkeypatch.setattr("models.download.download_model", no_download)
    assert app.main(["pick-model", "--fetch", "--keep-choice"]) == 0
    out = capsys.readouterr().out
    assert f"Your chosen model stays in use: {SMALL}" in out and "Not fetched." in out


def test_the_model_tab_explains_the_choice_in_words(no_gpu_here: None) -> None:
    from gui.model_panel_data import best_coder_for_machine

    model_id, why = best_coder_for_machine()
    assert model_id == LARGE
    assert why.startswith("**Best coder for this machine: Qwen2.5-Coder-1.5B-Instruct Q4_K_M.**")
    assert "tokens/s" in why and "reading speed" in why


def test_doctor_says_when_the_probe_ran_on_a_busy_machine() -> None:
    from models.doctor import _machine_lines
    from models.speed_probe import SpeedProbe

    busy = SpeedProbe(
        5.5e9, 4.8, SMALL, 398_000_000, None, 23.7, "2026-11-28T22:37:45+00:00",
        quiet_tokens_per_s=13.8, cpu_share=0.35, load=7.45, cores=2,
    )  # fmt: skip
    line = _machine_lines(busy.to_dict(), None)[0]
    assert line.startswith("Decode speed: 13.8 tokens/s on qwen2.5-coder-0.5b-q4_k_m by CPU time")
    assert "busy: it got 35% of a thread's time at load 7.45 on 2 cores, 4.8 tokens/s by the clock" in line


def test_the_model_tab_button_falls_back_to_a_coder_it_can_fetch(monkeypatch: pytest.MonkeyPatch) -> None:
    import gui.model_tab as model_tab
    from models.machine_coder import MachineChoice

    choice = MachineChoice(LARGE, False, "the 1.5B decodes about 18 tokens/s here", [SMALL])
    monkeypatch.setattr(model_tab, "machine_choice", lambda: choice)
    tried: list[str] = []

    def download(chosen: str, progress: object = None) -> str:
        tried.append(chosen)
        return "**Download failed:** no network" if chosen == LARGE else "Downloaded. Press Load to use it."

    monkeypatch.setattr(model_tab.ModelActions, "download_model_with_progress", staticmethod(download))
    said, selected = model_tab.ModelActions.fetch_best_coder(lambda *a, **k: None)
    assert tried == [LARGE, SMALL] and selected["value"] == SMALL
    assert "18 tokens/s" in said and "**Download failed:** no network" in said and "Press Load" in said


def test_pick_model_says_a_busy_measurement_can_be_taken_again(
    no_gpu_here: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    busy = SpeedProbe(4.9e9, 4.3, SMALL, 398_000_000, None, 22.4, "", quiet_tokens_per_s=12.1, cpu_share=0.36)
    monkeypatch.setattr("models.speed_probe.speed_probe_or_none", lambda remeasure=False: busy)
    assert app.main(["pick-model", "--no-fetch"]) == 0
    out = capsys.readouterr().out
    assert "Model for this machine: Qwen2.5-Coder-0.5B-Instruct Q4_K_M." in out
    assert "12.1 tokens/s on qwen2.5-coder-0.5b-q4_k_m (4.3 by the clock" in out
    assert "pick-model --fetch --reprobe` measures again" in out
