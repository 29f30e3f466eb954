"""A coder and a reviewer planned together into one GPU (one CUDA context, one margin) or into RAM."""

from __future__ import annotations

from models.catalog import catalog_entry
from models.model_shapes import shape_info
from models.offload_planner import PlanSettings, plan_offload
from models.pair_plan import plan_pair
from models.vram_probe import GpuState
from tests.fake_nvml import gpu_state

GiB = 2**30
SMALL, LARGE = (
    shape_info(catalog_entry("qwen2.5-coder-0.5b-q4_k_m")),
    shape_info(catalog_entry("qwen2.5-coder-1.5b-q4_k_m")),
)
AT_8K = PlanSettings(n_ctx=8192)


def _on_gpu(plan) -> int:
    return plan.terms["gpu_weights"] + plan.terms["gpu_kv"] + plan.terms["gpu_compute"]


def test_both_whole_on_an_8_gb_card_with_one_cuda_context() -> None:
    gpus = gpu_state(free=8 * GiB)
    pair = plan_pair(SMALL, LARGE, gpus, AT_8K, AT_8K, 64 * GiB)
    assert pair.both_whole_on_gpu and pair.both_fit_ram
    assert pair.coder.terms["cuda_context"] > 0 and pair.reviewer.terms["cuda_context"] == 0
    used = _on_gpu(pair.coder) + _on_gpu(pair.reviewer) + AT_8K.cuda_context_bytes
    assert used + AT_8K.margin_bytes <= 8 * GiB
    text = pair.text()
    assert "one CUDA context (600 MiB) and one margin (512 MiB) for both models" in text
    assert "Coder Qwen2.5-Coder-0.5B-Instruct Q4_K_M: all 25 layers on the GPU" in text
    assert "Reviewer Qwen2.5-Coder-1.5B-Instruct Q4_K_M: all 29 layers on the GPU" in text
    assert f"GPU total {used / 2**20:,.0f} MiB of 8,192 MiB free." in text


def test_the_reviewer_gets_what_the_coder_left() -> None:
    gpus = gpu_state(free=int(3.5 * GiB))
    alone = plan_offload(LARGE, gpus, AT_8K, with_alternatives=False)
    assert alone.n_gpu_layers == alone.max_layers  # by itself the 1.5B fits 3.5 GiB whole
    pair = plan_pair(LARGE, LARGE, gpus, AT_8K, AT_8K, 64 * GiB)
    assert pair.coder.n_gpu_layers == pair.coder.max_layers
    assert 0 < pair.reviewer.n_gpu_layers < pair.reviewer.max_layers  # next to it, only part does
    used = _on_gpu(pair.coder) + _on_gpu(pair.reviewer) + AT_8K.cuda_context_bytes
    assert used + AT_8K.margin_bytes <= 3.5 * GiB
    # Planned one by one against the same free VRAM, the two would ask for more than the card has.
    assert 2 * (_on_gpu(alone) + AT_8K.cuda_context_bytes) > 3.5 * GiB
    assert (
        f"Reviewer Qwen2.5-Coder-1.5B-Instruct Q4_K_M: {pair.reviewer.n_gpu_layers} of 29 layers"
        in pair.text()
    )


def test_on_the_cpu_both_load_when_ram_allows_and_it_says_so() -> None:
    no_gpu = GpuState("no_driver", "No NVIDIA driver found")
    roomy = plan_pair(SMALL, LARGE, no_gpu, AT_8K, AT_8K, 16 * GiB)
    assert roomy.both_fit_ram and roomy.warnings == []
    assert roomy.coder.n_gpu_layers == roomy.reviewer.n_gpu_layers == 0
    assert "No GPU (No NVIDIA driver found): both models run on the CPU." in roomy.text()
    assert "both load." in roomy.text()
    needed = roomy.coder.cpu_bytes_needed + roomy.reviewer.cpu_bytes_needed
    tight = plan_pair(SMALL, LARGE, no_gpu, AT_8K, AT_8K, needed - 1)
    assert tight.both_fit_ram is False and "they do not both fit" in tight.text()
    assert "use one model for both roles" in tight.warnings[0]


def test_a_reviewer_left_on_the_cpu_still_gets_room_for_its_compute_buffer() -> None:
    # The coder alone would fit whole with a little to spare, too little for the reviewer's compute
    # buffer, which a CUDA build puts on the GPU even when every layer of the reviewer is on the CPU.
    alone = plan_offload(LARGE, gpu_state(free=8 * GiB), AT_8K, with_alternatives=False)
    free = alone.gpu_bytes_needed + AT_8K.margin_bytes + 50 * 2**20
    pair = plan_pair(LARGE, LARGE, gpu_state(free=free), AT_8K, AT_8K, 64 * GiB)
    assert pair.reviewer.n_gpu_layers == 0
    compute = pair.reviewer.terms["compute_buffer_partial"]
    assert compute > 50 * 2**20
    assert pair.coder.n_gpu_layers < pair.coder.max_layers  # it gave layers up for that buffer
    assert pair.gpu_bytes_needed == pair.coder.gpu_bytes_needed + compute
    assert pair.gpu_bytes_needed + AT_8K.margin_bytes <= free
    assert f"its compute buffer ({compute / 2**20:,.0f} MiB) on the GPU" in pair.text()
    assert f"GPU total {pair.gpu_bytes_needed / 2**20:,.0f} MiB" in pair.text()


def test_without_a_gpu_no_compute_buffer_is_counted_on_one() -> None:
    pair = plan_pair(SMALL, LARGE, GpuState("no_driver", "No NVIDIA driver found"), AT_8K, AT_8K, 16 * GiB)
    assert pair.gpu_bytes_needed == 0 and "compute buffer" not in pair.text()
