"""Engine settings for a coder and a reviewer model loaded side by side, each with the layers and
context the joint plan gave it (models.pair_plan), so the first to load cannot take the VRAM
planned for the second."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from models.chat_engine import EngineSettings
from models.context_size import AUTO_N_CTX
from models.default_model import PLAN_N_CTX
from models.gguf_reader import GGUFInfo
from models.gguf_split import read_model_gguf
from models.memory import available_ram_bytes
from models.offload_planner import PlanSettings
from models.pair_plan import PairPlan, plan_pair
from models.vram_probe import GpuState, probe_gpus


def plan_settings(settings: EngineSettings, info: GGUFInfo) -> PlanSettings:
    # Two models share the machine: each gets the context a coder turn needs, not the most that fits,
    # and never more than it was trained for.
    n_ctx = settings.n_ctx if settings.n_ctx > AUTO_N_CTX else PLAN_N_CTX
    return PlanSettings(n_ctx=min(n_ctx, info.context_length or n_ctx), kv_type=settings.kv_type)


def pair_settings(
    coder: Path, reviewer: Path, settings: EngineSettings, gpus: GpuState | None = None
) -> tuple[EngineSettings, EngineSettings, PairPlan]:
    """Engine settings for each model, pinned to the joint plan's layers and context, and the plan.
    Raises GGUFError (a ValueError) when a file is not a model."""
    infos = read_model_gguf(coder), read_model_gguf(reviewer)
    plan = plan_pair(
        *infos,
        gpus if gpus is not None else probe_gpus(),
        *(plan_settings(settings, info) for info in infos),
        available_ram_bytes(),
    )
    pinned = [
        replace(settings, n_ctx=part.n_ctx, n_gpu_layers=part.n_gpu_layers)
        for part in (plan.coder, plan.reviewer)
    ]
    return pinned[0], pinned[1], plan
