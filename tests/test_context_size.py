"""models.context_size: the default n_ctx from free VRAM, RAM and the trained context; a given one wins.

VRAM comes from the fake NVML and RAM is passed in, so no figure here depends on this machine.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app import build_parser, engine_settings_of_args
from gui.model_panel_data import model_markdown, plan_preview
from gui.user_settings import UserSettings, merged
from models.chat_engine import EngineSettings
from models.context_size import (
    AUTO_N_CTX,
    CPU_MAX_N_CTX,
    MIN_N_CTX,
    choose_n_ctx,
    context_steps,
    plan_with_context,
)
from models.engine import Engine
from models.gguf_reader import GGUFInfo, read_gguf
from models.model_host import ModelHost
from models.offload_planner import PlanSettings, plan_offload
from models.vram_probe import GpuState
from tests.fake_nvml import gpu_state
from tests.gguf_builder import llama_like

GiB = 2**30
NO_GPU = GpuState("no_driver", "no driver")
PLENTY_OF_RAM = 64 * GiB


def _model(tmp_path: Path, name: str, trained: int, **shape: int) -> GGUFInfo:
    path = llama_like(tmp_path / f"{name}.gguf", extra={"llama.context_length": trained}, **shape)
    return read_gguf(path)


@pytest.fixture
def small(tmp_path: Path) -> GGUFInfo:
    """A few MiB of weights, trained on 32k tokens."""
    return _model(tmp_path, "small", 32768)


@pytest.fixture
def big(tmp_path: Path) -> GGUFInfo:
    """About 2.6 GiB of f16 weights and 128 KiB of KV cache per token (32 blocks, 8 KV heads of 128)."""
    shape = {"n_layer": 32, "n_embd": 4096, "n_head": 32, "n_head_kv": 8, "n_ff": 4096, "ggml_type": 1}
    return _model(tmp_path, "big", 32768, **shape)


def _all_layers_fit(info: GGUFInfo, gpus: GpuState, n_ctx: int) -> bool:
    plan = plan_offload(info, gpus, PlanSettings(n_ctx=n_ctx), with_alternatives=False)
    return plan.n_gpu_layers == plan.max_layers


def test_steps_are_the_limit_then_powers_of_two_down_to_2048() -> None:
    assert context_steps(32768) == [32768, 16384, 8192, 4096, 2048]
    assert context_steps(40960)[:2] == [40960, 32768]  # a trained context that is no power of two
    assert context_steps(MIN_N_CTX) == [MIN_N_CTX]
    assert context_steps(1024) == [1024]


def test_a_small_model_on_the_gpu_gets_its_whole_trained_context(small: GGUFInfo) -> None:
    choice = choose_n_ctx(small, gpu_state(free=8 * GiB), PLENTY_OF_RAM)
    assert choice.n_ctx == 32768
    assert choice.reason == "all 5 layers fit on the GPU with 32768 tokens (the trained context)"


def test_never_above_the_trained_context(bundled_model: Path) -> None:
    info = read_gguf(bundled_model)  # SmolLM2-135M, trained on 8192 tokens
    choice = choose_n_ctx(info, gpu_state(free=70 * GiB, total=80 * GiB), PLENTY_OF_RAM)
    assert choice.n_ctx == info.context_length == 8192
    assert "all 31 layers fit on the GPU" in choice.reason


def test_a_big_model_gets_the_largest_context_that_still_fits_whole(big: GGUFInfo) -> None:
    gpus = gpu_state(free=8 * GiB)
    choice = choose_n_ctx(big, gpus, PLENTY_OF_RAM)
    assert MIN_N_CTX <= choice.n_ctx < big.context_length
    assert _all_layers_fit(big, gpus, choice.n_ctx) and not _all_layers_fit(big, gpus, 2 * choice.n_ctx)
    assert choice.reason == f"all 33 layers fit on the GPU with {choice.n_ctx} tokens"
    # More VRAM, more context, up to the trained one.
    roomy = choose_n_ctx(big, gpu_state(free=40 * GiB, total=48 * GiB), PLENTY_OF_RAM)
    assert roomy.n_ctx == big.context_length


def test_a_model_the_gpu_cannot_hold_whole_falls_back_to_the_cpu_rule(big: GGUFInfo) -> None:
    choice = choose_n_ctx(big, gpu_state(free=2 * GiB), PLENTY_OF_RAM)
    assert choice.n_ctx == CPU_MAX_N_CTX
    assert choice.reason.startswith("not all layers fit on the GPU even with 2048 tokens; CPU: ")


def test_n_gpu_layers_0_means_the_cpu_rule_and_a_partial_override_is_what_must_fit(small: GGUFInfo) -> None:
    gpus = gpu_state(free=8 * GiB)
    on_cpu = choose_n_ctx(small, gpus, PLENTY_OF_RAM, PlanSettings(n_gpu_layers_override=0))
    assert (on_cpu.n_ctx, on_cpu.reason) == (CPU_MAX_N_CTX, "CPU: capped at 8192")
    partial = choose_n_ctx(small, gpus, PLENTY_OF_RAM, PlanSettings(n_gpu_layers_override=3))
    assert partial.reason == "the 3 layers asked for fit on the GPU with 32768 tokens (the trained context)"


def test_on_the_cpu_the_context_is_capped(small: GGUFInfo, big: GGUFInfo) -> None:
    for info in (small, big):
        assert choose_n_ctx(info, NO_GPU, PLENTY_OF_RAM).n_ctx == CPU_MAX_N_CTX
    assert choose_n_ctx(small, NO_GPU, PLENTY_OF_RAM).reason == "CPU: capped at 8192"
    assert choose_n_ctx(small, NO_GPU, None).n_ctx == CPU_MAX_N_CTX  # RAM unreadable: the cap alone


def test_little_ram_gives_a_smaller_context(big: GGUFInfo) -> None:
    weights = big.total_tensor_bytes()
    # 2 GiB beside the weights: half of it holds the KV cache and compute buffer of 4096 tokens
    # (0.9 GiB), not those of 8192 (1.6 GiB).
    choice = choose_n_ctx(big, NO_GPU, weights + 2 * GiB)
    assert choice.n_ctx == 4096
    assert choice.reason == "CPU: 4096, the most that fits in half the free RAM beside the weights"
    starved = choose_n_ctx(big, NO_GPU, weights)
    assert starved.n_ctx == MIN_N_CTX and "RAM free" in starved.reason


def test_a_short_trained_context_is_the_limit(tmp_path: Path) -> None:
    tiny = _model(tmp_path, "tiny", 1024)
    for gpus in (NO_GPU, gpu_state(free=8 * GiB)):
        assert choose_n_ctx(tiny, gpus, PLENTY_OF_RAM) == choose_n_ctx(tiny, NO_GPU, None)
        assert choose_n_ctx(tiny, gpus, PLENTY_OF_RAM).reason == "trained context 1024"
    mid = choose_n_ctx(_model(tmp_path, "mid", 4096), NO_GPU, PLENTY_OF_RAM)
    assert (mid.n_ctx, mid.reason) == (4096, "CPU: trained context 4096")


def test_a_given_n_ctx_wins(small: GGUFInfo) -> None:
    plan = plan_with_context(small, NO_GPU, 3072, PlanSettings(n_ctx=3072), PLENTY_OF_RAM)
    assert plan.n_ctx == 3072 and plan.n_ctx_reason == "set by --n-ctx or the saved settings"
    auto = plan_with_context(small, NO_GPU, AUTO_N_CTX, PlanSettings(), PLENTY_OF_RAM)
    assert (auto.n_ctx, auto.n_ctx_reason) == (CPU_MAX_N_CTX, "CPU: capped at 8192")
    assert auto.to_dict()["n_ctx_reason"] == "CPU: capped at 8192"


def test_the_command_line_and_saved_settings_win_over_the_default() -> None:
    parser = build_parser()
    assert engine_settings_of_args(parser.parse_args([])).n_ctx == AUTO_N_CTX
    assert engine_settings_of_args(parser.parse_args(["--n-ctx", "3072"])).n_ctx == 3072
    assert engine_settings_of_args(parser.parse_args(["ask", "x", "--n-ctx", "3072"])).n_ctx == 3072
    assert UserSettings().n_ctx == AUTO_N_CTX == UserSettings(n_ctx=-5).validated().n_ctx
    assert merged(UserSettings(n_ctx=8192), n_ctx=None).n_ctx == 8192  # saved
    assert merged(UserSettings(n_ctx=8192), n_ctx=2048).n_ctx == 2048  # --n-ctx over saved
    assert merged(UserSettings(), n_ctx=None).n_ctx == AUTO_N_CTX


def test_the_engine_plans_with_the_chosen_context_or_the_given_one(bundled_model: Path) -> None:
    probe = lambda: gpu_state(free=8 * GiB)  # noqa: E731
    auto = Engine(bundled_model, EngineSettings(n_ctx=AUTO_N_CTX), gpu_probe=probe)
    plan = auto.plan()
    assert plan.n_ctx == auto.settings.n_ctx == 8192 and "all 31 layers" in plan.n_ctx_reason
    given = Engine(bundled_model, EngineSettings(n_ctx=3072), gpu_probe=probe)
    assert given.plan().n_ctx == given.settings.n_ctx == 3072


def test_the_model_panel_shows_the_context_and_why(bundled_model: Path) -> None:
    preview = plan_preview("smollm2-135m", "", UserSettings())
    assert re.match(r"- Context \d+ tokens \(\S", preview)
    host = ModelHost(
        lambda: Engine(bundled_model, EngineSettings(n_ctx=AUTO_N_CTX), gpu_probe=lambda: NO_GPU)
    )
    host.start_loading()
    assert host.wait(60).state == "ready"
    n_ctx = host.engine.settings.n_ctx
    assert MIN_N_CTX <= n_ctx <= CPU_MAX_N_CTX  # 8192 unless this machine is short of RAM
    assert f"Context {n_ctx} tokens (CPU: " in model_markdown(host)
    assert f"context {n_ctx} tokens: CPU: " in host.status().message
    host.engine.close()
