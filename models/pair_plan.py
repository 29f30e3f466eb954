"""Two models in one process, planned together: a coder and a reviewer share the GPU and the RAM.

Each model has its own weights, KV cache and compute buffer; the process has one CUDA context. The
coder is placed first (it writes the code and takes most of the calls), with as many layers as fit;
the reviewer gets the VRAM left. Planning them one by one against NVML would count the CUDA context
twice and give the second model what the first has not yet taken. A model whose every layer stays
on the CPU still takes its compute buffer on the GPU in a CUDA build (llama.cpp runs a prompt's big
products there; seen on an H100, bench/results/2026-11-27-gpu), so the coder leaves room for the
reviewer's. On the CPU both load when their system-memory totals fit what is available, and the plan
says so either way.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from models.gguf_reader import GGUFInfo
from models.offload_planner import GiB, MiB, OffloadPlan, PlanSettings, plan_offload
from models.vram_probe import GpuState


@dataclass
class PairPlan:
    coder: OffloadPlan
    reviewer: OffloadPlan
    explanation: list[str]
    both_fit_ram: bool | None  # None: RAM could not be read
    warnings: list[str] = field(default_factory=list)

    @property
    def both_whole_on_gpu(self) -> bool:
        return all(
            p.device is not None and p.n_gpu_layers == p.max_layers for p in (self.coder, self.reviewer)
        )

    @property
    def gpu_bytes_needed(self) -> int:
        """What both take on the GPU together: layers, caches, compute buffers, one CUDA context."""
        return _gpu_total(self.coder, self.reviewer)

    def text(self) -> str:
        return "\n".join(self.explanation + [f"warning: {w}" for w in self.warnings])

    def to_dict(self) -> dict[str, Any]:
        return {
            "coder": self.coder.to_dict(),
            "reviewer": self.reviewer.to_dict(),
            "both_whole_on_gpu": self.both_whole_on_gpu,
            "both_fit_ram": self.both_fit_ram,
            "explanation": list(self.explanation),
            "warnings": list(self.warnings),
        }


def _gpu_left(gpus: GpuState, used: int) -> GpuState:
    """The GPUs as the second model sees them: the first model's bytes already taken."""
    best = gpus.best_device()
    if best is None:
        return gpus
    devices = [replace(d, free_bytes=max(0, d.free_bytes - used)) if d is best else d for d in gpus.devices]
    return replace(gpus, devices=devices)


def _gpu_model_bytes(plan: OffloadPlan) -> int:
    return plan.terms["gpu_weights"] + plan.terms["gpu_kv"] + plan.terms["gpu_compute"]


def _compute_without_layers(plan: OffloadPlan) -> int:
    """The compute buffer a model with no layer on the GPU still puts there (module doc)."""
    return plan.terms["compute_buffer_partial"] if plan.device is not None and not plan.n_gpu_layers else 0


def _gpu_total(*plans: OffloadPlan) -> int:
    # Each plan's own figure holds the CUDA context once: the second model's settings leave it out.
    return sum(plan.gpu_bytes_needed + _compute_without_layers(plan) for plan in plans)


def plan_pair(
    coder: GGUFInfo,
    reviewer: GGUFInfo,
    gpus: GpuState,
    coder_settings: PlanSettings,
    reviewer_settings: PlanSettings,
    ram_available_bytes: int | None,
) -> PairPlan:
    """Where each model's layers go, with one CUDA context and one margin for both."""
    alone = plan_offload(reviewer, gpus, reviewer_settings, with_alternatives=False)
    floor = alone.terms["compute_buffer_partial"] if alone.device is not None else 0
    first = plan_offload(coder, _gpu_left(gpus, floor), coder_settings, with_alternatives=False)
    # The reviewer's share: what the coder left, the CUDA context and margin already held back.
    reserved = coder_settings.cuda_context_bytes if first.n_gpu_layers else 0
    left = _gpu_left(gpus, _gpu_model_bytes(first) + reserved + _compute_without_layers(first))
    if reserved:  # one CUDA context per process: the coder's is already counted
        reviewer_settings = replace(reviewer_settings, cuda_context_bytes=0)
    second = plan_offload(reviewer, left, reviewer_settings, with_alternatives=False)
    cpu_total = first.cpu_bytes_needed + second.cpu_bytes_needed
    fits = None if ram_available_bytes is None else cpu_total <= ram_available_bytes
    warnings = []
    if fits is False:
        warnings.append(
            f"both models need {cpu_total / GiB:.2f} GiB of system memory but {ram_available_bytes / GiB:.2f}"
            " GiB is available: use one model for both roles, or a smaller reviewer"
        )
    lines = _explain(coder, reviewer, gpus, first, second, coder_settings, cpu_total, ram_available_bytes)
    return PairPlan(first, second, lines, fits, warnings)


def _mib(n: int) -> str:
    return f"{n / MiB:,.0f} MiB"


def _where(role: str, info: GGUFInfo, plan: OffloadPlan) -> str:
    terms = plan.terms
    if plan.n_gpu_layers == 0:
        ram = _mib(plan.cpu_bytes_needed)
        on_gpu = _compute_without_layers(plan)
        compute = f"; its compute buffer ({_mib(on_gpu)}) on the GPU" if on_gpu else ""
        return f"{role} {info.name}: all {plan.max_layers} layers on the CPU, {ram} of RAM{compute}."
    on_gpu = "all" if plan.n_gpu_layers == plan.max_layers else f"{plan.n_gpu_layers} of"
    return (
        f"{role} {info.name}: {on_gpu} {plan.max_layers} layers on the GPU (weights "
        f"{_mib(terms['gpu_weights'])}, KV cache {_mib(terms['gpu_kv'])} for {plan.n_ctx} tokens, "
        f"compute {_mib(terms['gpu_compute'])}); {_mib(plan.cpu_bytes_needed)} of RAM."
    )


def _explain(
    coder: GGUFInfo,
    reviewer: GGUFInfo,
    gpus: GpuState,
    first: OffloadPlan,
    second: OffloadPlan,
    settings: PlanSettings,
    cpu_total: int,
    ram: int | None,
) -> list[str]:
    device = gpus.best_device() if gpus.has_gpu else None
    lines = []
    if device is None:
        lines.append(f"No GPU ({gpus.message}): both models run on the CPU.")
    else:
        lines.append(
            f"GPU {device.index} ({device.name}): {_mib(device.free_bytes)} free; one CUDA context "
            f"({_mib(settings.cuda_context_bytes)}) and one margin ({_mib(settings.margin_bytes)}) "
            "for both models."
        )
    lines += [_where("Coder", coder, first), _where("Reviewer", reviewer, second)]
    if device is not None:
        used = _gpu_total(first, second)
        lines.append(f"GPU total {_mib(used)} of {_mib(device.free_bytes)} free.")
    if ram is None:
        lines.append(f"System memory for both: about {_mib(cpu_total)} (available memory could not be read).")
    else:
        verdict = "both load" if cpu_total <= ram else "they do not both fit"
        lines.append(f"System memory for both: {_mib(cpu_total)} of {_mib(ram)} available: {verdict}.")
    return lines
