"""The context window (n_ctx) to load a model with when the user sets none.

With a GPU: the largest step whose every layer, KV cache and compute buffer still fit in free
VRAM (the offload planner's own arithmetic and margin). On the CPU, or when the model does not fit
the GPU whole: the largest step whose KV cache and compute buffer fit in a share of the RAM left
beside the weights, at most CPU_MAX_N_CTX. Never above the model's trained context, never below
MIN_N_CTX unless the trained context is smaller.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from models.gguf_reader import GGUFInfo
from models.offload_planner import (
    GiB,
    OffloadPlan,
    PlanSettings,
    compute_buffer_bytes,
    kv_bytes_per_layer,
    plan_offload,
)
from models.vram_probe import GpuState

AUTO_N_CTX = 0  # in EngineSettings / UserSettings: "choose with choose_n_ctx"
MIN_N_CTX = 2048  # below this a coder turn (request, file, reply) no longer fits
# Prompt evaluation on a few CPU cores takes seconds per thousand tokens, and more as the context
# fills: a prompt filling 8k tokens is already a long wait, so a larger window only lets the crew
# send prompts nobody would wait for, while its KV cache takes RAM the index and checks need.
CPU_MAX_N_CTX = 8192
# The KV cache and compute buffer may take this share of the RAM left after the weights; the rest
# stays for the embedding model, the browser and the sandboxed checks.
RAM_SHARE = 0.5
UNKNOWN_TRAINED_N_CTX = 4096  # a GGUF without context_length: the old fixed default


@dataclass(frozen=True)
class ContextChoice:
    n_ctx: int
    reason: str  # short, for the model panel and doctor: why this size


def context_steps(limit: int) -> list[int]:
    """Candidate sizes, largest first: `limit` itself, then the powers of two below it, down to
    MIN_N_CTX (just `limit` when it is below MIN_N_CTX)."""
    steps = [limit]
    size = MIN_N_CTX
    while size < limit:
        steps.append(size)
        size *= 2
    return sorted(set(steps), reverse=True)


def choose_n_ctx(
    info: GGUFInfo,
    gpus: GpuState,
    ram_available_bytes: int | None,
    settings: PlanSettings | None = None,
) -> ContextChoice:
    """The default n_ctx for this model on this machine, and why. `settings` gives the KV type,
    ubatch, margins and the user's --n-gpu-layers (0 means the CPU rule); its n_ctx is ignored."""
    settings = settings or PlanSettings()
    trained = info.context_length or UNKNOWN_TRAINED_N_CTX
    if trained < MIN_N_CTX:
        return ContextChoice(trained, f"trained context {trained}")
    prefix = ""
    if gpus.has_gpu and settings.n_gpu_layers_override != 0:
        choice = _gpu_choice(info, gpus, settings, trained)
        if choice is not None:
            return choice
        prefix = f"not all layers fit on the GPU even with {MIN_N_CTX} tokens; "
    cpu = _cpu_choice(info, ram_available_bytes, settings, trained)
    return ContextChoice(cpu.n_ctx, prefix + cpu.reason)


def _gpu_choice(info: GGUFInfo, gpus: GpuState, settings: PlanSettings, trained: int) -> ContextChoice | None:
    """The largest step at which the layers asked for (all unless --n-gpu-layers says fewer) fit."""
    override = settings.n_gpu_layers_override
    for n_ctx in context_steps(trained):
        plan = plan_offload(
            info, gpus, replace(settings, n_ctx=n_ctx, n_gpu_layers_override=None), with_alternatives=False
        )
        wanted = plan.max_layers if override is None or override < 0 else min(override, plan.max_layers)
        if plan.n_gpu_layers >= wanted:
            which = f"all {wanted} layers" if wanted == plan.max_layers else f"the {wanted} layers asked for"
            capped = " (the trained context)" if n_ctx == trained else ""
            return ContextChoice(n_ctx, f"{which} fit on the GPU with {n_ctx} tokens{capped}")
    return None


def _cpu_choice(
    info: GGUFInfo, ram_available_bytes: int | None, settings: PlanSettings, trained: int
) -> ContextChoice:
    limit = min(trained, CPU_MAX_N_CTX)
    capped = f"capped at {limit}" if limit == CPU_MAX_N_CTX else f"trained context {limit}"
    if ram_available_bytes is None:  # unreadable: the cap alone decides
        return ContextChoice(limit, f"CPU: {capped}")
    room = RAM_SHARE * (ram_available_bytes - info.total_tensor_bytes())
    for n_ctx in context_steps(limit):
        if _cpu_context_bytes(info, n_ctx, settings) <= room:
            if n_ctx == limit:
                return ContextChoice(n_ctx, f"CPU: {capped}")
            return ContextChoice(
                n_ctx, f"CPU: {n_ctx}, the most that fits in half the free RAM beside the weights"
            )
    free = ram_available_bytes / GiB
    return ContextChoice(min(MIN_N_CTX, limit), f"CPU: only {free:.1f} GiB of RAM free, the smallest size")


def _cpu_context_bytes(info: GGUFInfo, n_ctx: int, settings: PlanSettings) -> int:
    """What n_ctx costs in RAM on the CPU: the whole KV cache and the full compute buffer."""
    kv = sum(kv_bytes_per_layer(info, n_ctx, settings.kv_type, settings.n_ubatch))
    return kv + compute_buffer_bytes(info, n_ctx, settings.n_ubatch, settings.flash_attn, True)


def plan_with_context(
    info: GGUFInfo,
    gpus: GpuState,
    requested_n_ctx: int,
    settings: PlanSettings,
    ram_available_bytes: int | None,
) -> OffloadPlan:
    """The offload plan at the user's n_ctx, or at choose_n_ctx's when they gave none (AUTO_N_CTX);
    the plan's n_ctx_reason says which."""
    if requested_n_ctx > AUTO_N_CTX:
        choice = ContextChoice(requested_n_ctx, "set by --n-ctx or the saved settings")
    else:
        choice = choose_n_ctx(info, gpus, ram_available_bytes, settings)
    plan = plan_offload(info, gpus, replace(settings, n_ctx=choice.n_ctx), ram_available_bytes)
    plan.n_ctx_reason = choice.reason
    return plan
