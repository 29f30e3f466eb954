"""Choose n_gpu_layers from free VRAM, counting every term llama.cpp will allocate on the GPU.

llama.cpp (0.3.36's vendored copy, llama-model.cpp) offloads from the back: with n_gpu_layers = k
the output head goes to the GPU first, then the last k-1 repeating blocks; the token embedding
always stays on the CPU. So the candidate layouts are k = 0 .. n_layer + 1, and we take the
largest k whose GPU total stays inside free VRAM minus the CUDA context and a safety margin.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from models.gguf_reader import GGUFInfo
from models.vram_probe import GpuDevice, GpuState

MiB = 1024 * 1024
GiB = 1024 * MiB

# Bytes per cached element: ggml block sizes (q8_0: 34 bytes per 32, q4_0: 18 per 32).
KV_BYTES_PER_ELEMENT: dict[str, float] = {"f16": 2.0, "q8_0": 34 / 32, "q4_0": 18 / 32}
KV_TYPES = tuple(KV_BYTES_PER_ELEMENT)

# Counted by NVML, not by the model: the load took 605 MiB more than the model's own buffers on an
# H200 with CUDA 13 (bench/results/2026-11-25-gpu-offload-h200); 300-500 MiB is reported on smaller cards.
DEFAULT_CUDA_CONTEXT = 600 * MiB
DEFAULT_MARGIN = 512 * MiB  # other programs' VRAM changes between plan and load
_CTX_PAD = 256  # llama.cpp pads the KV cache length to a multiple of 256


@dataclass(frozen=True)
class PlanSettings:
    n_ctx: int = 4096
    kv_type: str = "f16"
    n_ubatch: int = 512
    flash_attn: bool = False
    cuda_context_bytes: int = DEFAULT_CUDA_CONTEXT
    margin_bytes: int = DEFAULT_MARGIN
    n_gpu_layers_override: int | None = None  # the user's --n-gpu-layers; -1 = all

    def __post_init__(self) -> None:
        if self.kv_type not in KV_BYTES_PER_ELEMENT:
            raise ValueError(f"KV cache type must be one of {', '.join(KV_TYPES)}, not '{self.kv_type}'")
        if self.n_ctx < 16:
            raise ValueError(f"n_ctx must be at least 16, not {self.n_ctx}")
        if self.kv_type != "f16" and not self.flash_attn:
            # llama.cpp refuses a quantized V cache without flash attention.
            object.__setattr__(self, "flash_attn", True)


@dataclass
class OffloadPlan:
    n_gpu_layers: int
    max_layers: int  # n_layer + 1 (the output head counts as one)
    n_ctx: int
    kv_type: str
    flash_attn: bool
    device: GpuDevice | None
    free_vram_bytes: int
    terms: dict[str, int]  # every byte count the plan used
    gpu_bytes_needed: int
    cpu_bytes_needed: int
    explanation: list[str]
    alternatives: list[dict[str, Any]] = field(default_factory=list)
    overridden: bool = False
    warnings: list[str] = field(default_factory=list)
    n_ctx_reason: str = ""  # why this n_ctx (models.context_size sets it)

    def text(self) -> str:
        return "\n".join(self.explanation + [f"warning: {w}" for w in self.warnings])

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_gpu_layers": self.n_gpu_layers,
            "max_layers": self.max_layers,
            "n_ctx": self.n_ctx,
            "n_ctx_reason": self.n_ctx_reason,
            "kv_type": self.kv_type,
            "flash_attn": self.flash_attn,
            "device": None if self.device is None else self.device.name,
            "free_vram_bytes": self.free_vram_bytes,
            "terms": dict(self.terms),
            "gpu_bytes_needed": self.gpu_bytes_needed,
            "cpu_bytes_needed": self.cpu_bytes_needed,
            "overridden": self.overridden,
            "explanation": list(self.explanation),
            "alternatives": list(self.alternatives),
            "warnings": list(self.warnings),
        }


def padded_ctx(n_ctx: int) -> int:
    return (n_ctx + _CTX_PAD - 1) // _CTX_PAD * _CTX_PAD


def kv_bytes_per_layer(info: GGUFInfo, n_ctx: int, kv_type: str, n_ubatch: int = 512) -> list[int]:
    """KV cache bytes of each block: n_cells * n_head_kv * (key_len * bytes_k + value_len * bytes_v)."""
    per_elem = KV_BYTES_PER_ELEMENT[kv_type]
    cells_full = padded_ctx(n_ctx)
    window = info.sliding_window
    cells_swa = min(cells_full, padded_ctx(window + n_ubatch)) if window else cells_full
    swa_layers = info.sliding_window_layers()
    sizes = []
    for layer, n_head_kv in enumerate(info.head_count_kv_per_layer()):
        cells = cells_swa if swa_layers[layer] else cells_full
        per_cell = n_head_kv * (info.key_length + info.value_length) * per_elem
        sizes.append(int(cells * per_cell))
    return sizes


def compute_buffer_bytes(
    info: GGUFInfo, n_ctx: int, n_ubatch: int, flash_attn: bool, output_on_device: bool
) -> int:
    """Estimate of llama.cpp's compute (graph) buffer for one ubatch on one device.

    The graph allocator reuses memory, so the peak is the larger of the layer step (activations
    plus, without flash attention, one f32 KQ matrix) and the logits step. The constants were fitted
    to llama.cpp's "compute buffer size" log line for the bundled model at n_ctx 512-8192 (within
    3 %; tests/test_offload_planner.py re-checks it against the real log).
    """
    n_embd = info.embedding_length
    n_ff_raw = info.arch_value("feed_forward_length", 4 * n_embd) or 4 * n_embd
    n_ff = max(n_ff_raw) if isinstance(n_ff_raw, list) else int(n_ff_raw)
    tokens = n_ubatch
    activations = 4 * tokens * (2 * n_ff + 16 * n_embd)
    if flash_attn:
        attention = 4 * tokens * info.head_count * info.value_length * 2
    else:
        attention = 4 * tokens * padded_ctx(n_ctx) * info.head_count
    logits = 4 * tokens * (info.vocab_size + 2 * n_embd) if output_on_device else 0
    return max(activations + attention, logits)


def _gpu_need(
    k: int, blocks: list[int], kv: list[int], output: int, compute: tuple[int, int]
) -> dict[str, int]:
    """GPU bytes for k offloaded layers: output first, then the last k-1 blocks."""
    n_layer = len(blocks)
    if k <= 0:
        return {"weights": 0, "kv": 0, "compute": 0}
    n_blocks = min(k - 1, n_layer)
    first = n_layer - n_blocks
    return {
        "weights": output + sum(blocks[first:]),
        "kv": sum(kv[first:]),
        "compute": compute[1] if k >= n_layer + 1 else compute[0],
    }


def _chosen_layers(
    settings: PlanSettings,
    device: GpuDevice | None,
    max_layers: int,
    budget: int,
    need: Callable[[int], int],
    warnings: list[str],
) -> int:
    """The layers asked for (`--n-gpu-layers`, warned about when they cannot fit), or the most that
    fit the budget."""
    requested = settings.n_gpu_layers_override
    if requested is not None:
        chosen = max_layers if requested < 0 else min(requested, max_layers)
        if device is None and chosen > 0:
            warnings.append("--n-gpu-layers was given but there is no GPU: the layers stay on the CPU")
            return 0
        if device is not None and need(chosen) > budget:
            warnings.append(
                f"--n-gpu-layers {chosen} needs {_mib(need(chosen))} on the GPU but only {_mib(budget)}"
                " is free after the CUDA context and margin: loading may fail (it will then retry "
                "with fewer layers)"
            )
        return chosen
    if device is None:
        return 0
    return max((k for k in range(max_layers + 1) if need(k) <= budget), default=0)


def plan_offload(
    info: GGUFInfo,
    gpus: GpuState,
    settings: PlanSettings = PlanSettings(),
    ram_available_bytes: int | None = None,
    *,
    with_alternatives: bool = True,
) -> OffloadPlan:
    """The most layers that fit, with every term it counted and what other settings would buy."""
    n_layer = info.block_count
    max_layers = n_layer + 1
    blocks = info.block_bytes()
    kv = kv_bytes_per_layer(info, settings.n_ctx, settings.kv_type, settings.n_ubatch)
    output = info.output_bytes()
    compute_partial = compute_buffer_bytes(
        info, settings.n_ctx, settings.n_ubatch, settings.flash_attn, False
    )
    compute_full = compute_buffer_bytes(info, settings.n_ctx, settings.n_ubatch, settings.flash_attn, True)
    compute = (compute_partial, compute_full)
    device = gpus.best_device() if gpus.has_gpu else None
    free = device.free_bytes if device else 0
    budget = free - settings.cuda_context_bytes - settings.margin_bytes if device else 0

    terms: dict[str, int] = {
        "free_vram": free,
        "output_head": output,
        "block_weights_each": max(blocks, default=0),
        "block_weights_total": sum(blocks),
        "kv_cache_each": max(kv, default=0),
        "kv_cache_total": sum(kv),
        "compute_buffer_partial": compute_partial,
        "compute_buffer_full": compute_full,
        "cuda_context": settings.cuda_context_bytes if device else 0,
        "margin": settings.margin_bytes if device else 0,
        "budget": max(budget, 0),
        "token_embedding_cpu": _tensor_bytes(info, "token_embd.weight"),
    }

    def need(k: int) -> int:
        return sum(_gpu_need(k, blocks, kv, output, compute).values())

    overridden = settings.n_gpu_layers_override is not None
    warnings: list[str] = []
    chosen = _chosen_layers(settings, device, max_layers, budget, need, warnings)

    gpu_parts = _gpu_need(chosen, blocks, kv, output, compute)
    gpu_total = sum(gpu_parts.values()) + (settings.cuda_context_bytes if chosen else 0)
    cpu_total = _cpu_need(info, chosen, blocks, kv, output, compute_full, compute_partial)
    terms.update({f"gpu_{name}": value for name, value in gpu_parts.items()})
    terms["cpu_total"] = cpu_total

    explanation = _explain(info, gpus, device, settings, chosen, max_layers, terms, budget, overridden)
    if ram_available_bytes is not None and cpu_total > ram_available_bytes:
        warnings.append(
            f"the part kept in system memory needs {_gib(cpu_total)} but only "
            f"{_gib(ram_available_bytes)} is available: choose a smaller model or quantization, "
            "a smaller context, or free memory"
        )
    plan = OffloadPlan(
        n_gpu_layers=chosen,
        max_layers=max_layers,
        n_ctx=settings.n_ctx,
        kv_type=settings.kv_type,
        flash_attn=settings.flash_attn,
        device=device,
        free_vram_bytes=free,
        terms=terms,
        gpu_bytes_needed=gpu_total,
        cpu_bytes_needed=cpu_total,
        explanation=explanation,
        overridden=overridden,
        warnings=warnings,
    )
    if with_alternatives and device is not None and not overridden:
        plan.alternatives = _alternatives(info, gpus, settings, plan)
    return plan


def _tensor_bytes(info: GGUFInfo, name: str) -> int:
    return next((t.n_bytes for t in info.tensors if t.name == name), 0)


def _norm_bytes(info: GGUFInfo) -> int:
    return sum(t.n_bytes for t in info.tensors if t.name.startswith("output_norm."))


def _cpu_need(
    info: GGUFInfo,
    k: int,
    blocks: list[int],
    kv: list[int],
    output: int,
    compute_full: int,
    compute_partial: int,
) -> int:
    """System memory for what stays on the CPU: embedding, head if not offloaded, early blocks, KV."""
    n_gpu_blocks = min(max(k - 1, 0), len(blocks))
    cpu_blocks = len(blocks) - n_gpu_blocks
    non_block = info.total_tensor_bytes() - sum(blocks)  # token embedding, head, norms
    # A tied head is a copy of token_embd made on the GPU; only an untied one leaves the CPU.
    leaves_cpu = (_norm_bytes(info) if info.output_is_tied else output) if k >= 1 else 0
    weights = non_block - leaves_cpu + sum(blocks[:cpu_blocks])
    return weights + sum(kv[:cpu_blocks]) + (compute_full if k == 0 else compute_partial)


def _alternatives(
    info: GGUFInfo, gpus: GpuState, settings: PlanSettings, base: OffloadPlan
) -> list[dict[str, Any]]:
    """What a quantized KV cache or a smaller context would buy, in layers and bytes."""
    options: list[PlanSettings] = []
    for kv_type in KV_TYPES:
        if kv_type != settings.kv_type:
            options.append(_replace(settings, kv_type=kv_type))
    n_ctx = settings.n_ctx // 2
    while n_ctx >= 2048 and len(options) < 6:
        options.append(_replace(settings, n_ctx=n_ctx))
        n_ctx //= 2
    result = []
    for option in options:
        plan = plan_offload(info, gpus, option, with_alternatives=False)
        result.append(
            {
                "n_ctx": option.n_ctx,
                "kv_type": option.kv_type,
                "n_gpu_layers": plan.n_gpu_layers,
                "extra_layers": plan.n_gpu_layers - base.n_gpu_layers,
                "kv_cache_total": plan.terms["kv_cache_total"],
                "saves_bytes": base.terms["kv_cache_total"] - plan.terms["kv_cache_total"],
            }
        )
    return result


def _replace(settings: PlanSettings, **changes: Any) -> PlanSettings:
    values = {name: getattr(settings, name) for name in PlanSettings.__dataclass_fields__}
    values.update(changes)
    if values["kv_type"] == "f16" and "kv_type" in changes:
        values["flash_attn"] = settings.flash_attn and settings.kv_type == "f16"
    return PlanSettings(**values)


def _mib(n: int) -> str:
    return f"{n / MiB:,.0f} MiB"


def _gib(n: int) -> str:
    return f"{n / GiB:.2f} GiB"


def _explain(
    info: GGUFInfo,
    gpus: GpuState,
    device: GpuDevice | None,
    settings: PlanSettings,
    chosen: int,
    max_layers: int,
    terms: dict[str, int],
    budget: int,
    overridden: bool,
) -> list[str]:
    kv_line = (
        f"KV cache ({settings.kv_type}, n_ctx {settings.n_ctx}): {_mib(terms['kv_cache_each'])} per block, "
        f"{_mib(terms['kv_cache_total'])} for all {info.block_count}"
    )
    weights_line = (
        f"Weights: output head {_mib(terms['output_head'])}, {_mib(terms['block_weights_each'])} per block "
        f"x {info.block_count} blocks"
    )
    if device is None:
        return [
            f"No GPU ({gpus.message}). Running on the CPU: n_gpu_layers = 0.",
            weights_line,
            kv_line,
            f"System memory needed: about {_mib(terms['cpu_total'])}.",
        ]
    lines = [
        f"GPU {device.index} ({device.name}): {_mib(device.free_bytes)} free of {_mib(device.total_bytes)}.",
        f"Reserved: CUDA context {_mib(settings.cuda_context_bytes)} + margin {_mib(settings.margin_bytes)}"
        f" -> {_mib(max(budget, 0))} for the model.",
        weights_line,
        kv_line,
        f"Compute buffer: {_mib(terms['compute_buffer_partial'])} (partial offload), "
        f"{_mib(terms['compute_buffer_full'])} (full offload).",
    ]
    gpu_sum = terms["gpu_weights"] + terms["gpu_kv"] + terms["gpu_compute"]
    if overridden:
        lines.append(f"n_gpu_layers = {chosen} of {max_layers} (set by the user), needing {_mib(gpu_sum)}.")
    elif chosen == max_layers:
        lines.append(f"Everything fits: n_gpu_layers = {chosen} of {max_layers}, using {_mib(gpu_sum)}.")
    elif chosen == 0:
        lines.append("Not even the output head fits next to the compute buffer: n_gpu_layers = 0 (CPU only).")
    else:
        lines.append(
            f"n_gpu_layers = {chosen} of {max_layers} (output head + last {chosen - 1} blocks), "
            f"using {_mib(gpu_sum)}; the first {max_layers - chosen} blocks stay on the CPU."
        )
    return lines
