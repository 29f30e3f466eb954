"""The model used when none is named: the best installed coder that fits, explained; the 135M last."""

from pathlib import Path

from models.default_model import choose_default_model
from models.reply_budget import reply_budget
from models.speed_probe import SpeedProbe
from models.vram_probe import GpuState
from tests.fake_nvml import gpu_state
from tests.gguf_builder import llama_like

NO_GPU = GpuState("no_driver", "no driver")
SMALL, LARGE = "qwen2.5-coder-0.5b-q4_k_m", "qwen2.5-coder-1.5b-q4_k_m"


def _installed(files: dict[str, Path]):
    return lambda model_id: files.get(model_id)


def _too_slow() -> SpeedProbe:
    """A CPU that reads 3 GB/s of weights while decoding: the 1.5B would manage about 3 tokens/s."""
    return SpeedProbe(3e9, 7.5, SMALL, 400_000_000, None, 1.0, "2026-11-28T00:00:00+00:00")


def test_a_cpu_too_slow_for_the_larger_coder_takes_the_small_one(bundled_model: Path) -> None:
    files = {SMALL: bundled_model, LARGE: bundled_model, "smollm2-135m": bundled_model}
    choice = choose_default_model(NO_GPU, _installed(files), _too_slow, lambda: 16 * 2**30)
    assert choice.model_id == SMALL and choice.path == bundled_model
    assert "no GPU" in choice.reason and "under the 6 wanted" in choice.reason


def test_a_gpu_with_room_takes_the_largest_installed_coder(bundled_model: Path) -> None:
    files = {SMALL: bundled_model, LARGE: bundled_model}
    choice = choose_default_model(gpu_state(free=6 * 2**30), _installed(files))
    assert choice.model_id == LARGE and "GPU" in choice.reason


def test_a_coder_that_does_not_fit_the_gpu_is_passed_over(tmp_path: Path, bundled_model: Path) -> None:
    # 40 blocks of about 100 MiB each (sparse on disk): far more than 1 GiB of free VRAM.
    big = llama_like(tmp_path / "big.gguf", n_layer=40, n_embd=4096, n_ff=4096, ggml_type=1)
    files = {"qwen2.5-coder-7b-q4_k_m": big, SMALL: bundled_model}
    choice = choose_default_model(gpu_state(free=2**30), _installed(files), _too_slow, lambda: 16 * 2**30)
    assert choice.model_id == SMALL and "no room" in choice.reason
    roomy = choose_default_model(gpu_state(free=40 * 2**30, total=48 * 2**30), _installed(files))
    assert roomy.model_id == "qwen2.5-coder-7b-q4_k_m"


def test_no_coder_installed_falls_back_to_the_bundled_model_and_says_how_to_get_one(
    bundled_model: Path,
) -> None:
    choice = choose_default_model(NO_GPU, _installed({"smollm2-135m": bundled_model}))
    assert choice.model_id == "smollm2-135m" and choice.path == bundled_model
    assert "app.py download qwen2.5-coder-0.5b-q4_k_m" in choice.reason


def test_reply_caps_grow_for_a_model_that_codes_and_stay_within_the_context() -> None:
    tiny, coder = reply_budget(135_000_000, 4096), reply_budget(494_000_000, 4096)
    assert coder.answer > tiny.answer and coder.tool_call > tiny.tool_call
    small_ctx = reply_budget(494_000_000, 1024)
    assert max(small_ctx.answer, small_ctx.tool_call, small_ctx.plan, small_ctx.review) <= 512


def test_a_model_is_shown_by_its_catalog_title_not_the_name_inside_the_file(tmp_path: Path) -> None:
    from models.catalog import display_name

    # Qwen's own Q4_K_M file calls itself "Qwen2.5 Coder 0.5B Instruct AWQ" inside.
    coder = tmp_path / "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
    assert display_name(coder) == "Qwen2.5-Coder-0.5B-Instruct Q4_K_M"
    assert display_name(tmp_path / "my-model.Q5_K_M.gguf") == "my-model.Q5_K_M"
