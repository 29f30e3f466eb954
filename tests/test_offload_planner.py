"""Planner arithmetic against figures computed by hand from the bundled model's tensor table.

SmolLM2-135M Q4_1: 30 blocks of 2,216,448 bytes; tied output head = token_embd (576 x 49152 Q8_0,
30,081,024 bytes) + output_norm (2,304) = 30,083,328 bytes; 3 KV heads x (64 + 64) dims per cell.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from models.gguf_reader import read_gguf
from models.offload_planner import (
    DEFAULT_CUDA_CONTEXT,
    DEFAULT_MARGIN,
    MiB,
    PlanSettings,
    compute_buffer_bytes,
    kv_bytes_per_layer,
    plan_offload,
)
from models.vram_probe import GpuState
from tests.fake_nvml import gpu_state
from tests.gguf_builder import llama_like

BLOCK = 2_216_448
OUTPUT = 30_083_328
N_LAYER = 30
RESERVED = DEFAULT_CUDA_CONTEXT + DEFAULT_MARGIN  # the defaults
# KV bytes per block at n_ctx 4096: 4096 cells * 3 heads * 128 dims * bytes per element.
KV_4096 = {"f16": 4096 * 3 * 128 * 2, "q8_0": 4096 * 3 * 128 * 34 // 32, "q4_0": 4096 * 3 * 128 * 18 // 32}


@pytest.fixture(scope="module")
def info(bundled_model: Path):
    return read_gguf(bundled_model)


def test_kv_cache_by_hand(info) -> None:
    assert KV_4096 == {"f16": 3_145_728, "q8_0": 1_671_168, "q4_0": 884_736}
    for kv_type, per_block in KV_4096.items():
        assert kv_bytes_per_layer(info, 4096, kv_type) == [per_block] * N_LAYER
    # n_ctx is padded to a multiple of 256 like llama.cpp does: 1000 -> 1024 cells.
    assert kv_bytes_per_layer(info, 1000, "f16")[0] == 1024 * 3 * 128 * 2


def test_no_gpu_runs_on_cpu(info) -> None:
    plan = plan_offload(info, GpuState("no_driver", "no driver"))
    assert plan.n_gpu_layers == 0 and plan.device is None
    assert "CPU" in plan.explanation[0]
    # Everything stays in RAM: all weights + all KV + the full compute buffer.
    expected = info.total_tensor_bytes() + N_LAYER * KV_4096["f16"] + plan.terms["compute_buffer_full"]
    assert plan.cpu_bytes_needed == expected


def test_everything_fits(info) -> None:
    plan = plan_offload(info, gpu_state(free=8 * 2**30))
    assert plan.n_gpu_layers == N_LAYER + 1 == plan.max_layers
    assert plan.terms["gpu_weights"] == OUTPUT + N_LAYER * BLOCK
    assert plan.terms["gpu_kv"] == N_LAYER * KV_4096["f16"]
    assert plan.terms["gpu_compute"] == plan.terms["compute_buffer_full"]
    assert (
        plan.gpu_bytes_needed
        == OUTPUT
        + N_LAYER * (BLOCK + KV_4096["f16"])
        + plan.terms["compute_buffer_full"]
        + DEFAULT_CUDA_CONTEXT
    )
    assert "Everything fits" in plan.text()


def test_nothing_fits(info) -> None:
    plan = plan_offload(info, gpu_state(free=RESERVED + 50 * MiB))  # 50 MiB < head + compute buffer
    assert plan.n_gpu_layers == 0
    assert "Not even the output head" in plan.text()


@pytest.mark.parametrize("kv_type", ["f16", "q8_0", "q4_0"])
@pytest.mark.parametrize("blocks", [0, 7, 29])
def test_partial_offload_boundary(info, kv_type: str, blocks: int) -> None:
    settings = PlanSettings(n_ctx=4096, kv_type=kv_type)
    compute = plan_offload(info, gpu_state(free=8 * 2**30), settings).terms["compute_buffer_partial"]
    # Exactly enough for the head plus `blocks` blocks with their KV: layers = 1 + blocks ...
    exact = RESERVED + OUTPUT + compute + blocks * (BLOCK + KV_4096[kv_type])
    plan = plan_offload(info, gpu_state(free=exact), settings)
    assert plan.n_gpu_layers == 1 + blocks
    assert plan.terms["gpu_weights"] == OUTPUT + blocks * BLOCK
    assert plan.terms["gpu_kv"] == blocks * KV_4096[kv_type]
    # ... and one byte less loses the last of them.
    assert plan_offload(info, gpu_state(free=exact - 1), settings).n_gpu_layers == blocks


def test_quantized_kv_fits_more_and_turns_on_flash_attention(info) -> None:
    free = RESERVED + 150 * MiB
    layers = {kv: plan_offload(info, gpu_state(free=free), PlanSettings(kv_type=kv)).n_gpu_layers
              for kv in ("f16", "q8_0", "q4_0")}  # fmt: skip
    assert layers["f16"] < layers["q8_0"] < layers["q4_0"]
    assert PlanSettings(kv_type="q8_0").flash_attn  # llama.cpp needs it for a quantized V cache


def test_alternatives_report_what_smaller_settings_buy(info) -> None:
    plan = plan_offload(info, gpu_state(free=RESERVED + 150 * MiB), PlanSettings(n_ctx=8192))
    by_setting = {(a["n_ctx"], a["kv_type"]): a for a in plan.alternatives}
    q8 = by_setting[(8192, "q8_0")]
    assert q8["saves_bytes"] == N_LAYER * 8192 * 3 * 128 * (2 - 34 / 32)
    assert q8["n_gpu_layers"] > plan.n_gpu_layers and q8["extra_layers"] > 0
    half = by_setting[(4096, "f16")]
    assert half["kv_cache_total"] == N_LAYER * KV_4096["f16"]


def test_override_is_respected_and_warned(info) -> None:
    plan = plan_offload(info, gpu_state(free=RESERVED + 10 * MiB), PlanSettings(n_gpu_layers_override=-1))
    assert plan.n_gpu_layers == N_LAYER + 1 and plan.overridden
    assert any("may fail" in w for w in plan.warnings)
    cpu = plan_offload(info, GpuState("no_driver", "none"), PlanSettings(n_gpu_layers_override=10))
    assert cpu.n_gpu_layers == 0 and cpu.warnings


def test_ram_check_flags_a_model_bigger_than_memory(info) -> None:
    plan = plan_offload(info, GpuState("no_driver", "none"), ram_available_bytes=50 * MiB)
    assert any("system memory" in w for w in plan.warnings)


def test_sliding_window_layers_hold_only_the_window(tmp_path: Path) -> None:
    swa = read_gguf(llama_like(tmp_path / "g.gguf", n_layer=6, n_embd=64, n_head=4, n_head_kv=2,
                               arch="gemma3", extra={"gemma3.attention.sliding_window": 512}))  # fmt: skip
    sizes = kv_bytes_per_layer(swa, 8192, "f16", n_ubatch=512)
    per_cell = 2 * (16 + 16) * 2
    assert sizes == [1024 * per_cell] * 5 + [8192 * per_cell]  # window 512 + ubatch 512 cells


@pytest.mark.parametrize(("n_ctx", "flash"), [(512, False), (4096, False), (8192, False), (4096, True)])
def test_compute_buffer_estimate_matches_llama_cpp(
    info, bundled_model: Path, n_ctx: int, flash: bool
) -> None:
    code = (f"from llama_cpp import Llama; Llama(model_path={str(bundled_model)!r}, n_ctx={n_ctx}, "
            f"n_batch=512, n_ubatch=512, flash_attn={flash}, verbose=True)")  # fmt: skip
    log = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120).stderr
    measured = float(re.search(r"CPU compute buffer size =\s+([\d.]+) MiB", log).group(1)) * MiB
    estimate = compute_buffer_bytes(info, n_ctx, 512, flash, output_on_device=True)
    assert abs(estimate - measured) / measured < 0.10
