"""Which coder this machine should have: on a GPU with a CUDA build the largest pinned coder that
fits it whole (models.gpu_choice); everywhere else the largest pinned coder that fits free memory
with its context and decodes at least about 6 tokens/s here, by measurement (models.cpu_coder).
`./launch.sh` (app.py pick-model --fetch), `doctor` and the Model tab ask this.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from models.cpu_coder import CpuChoice, choose_cpu_coder
from models.speed_probe import SpeedProbe
from models.vram_probe import GpuState


@dataclass(frozen=True)
class MachineChoice:
    """The coder for this machine, GPU or CPU, and why, in the words launch.sh and the page show."""

    model_id: str
    on_gpu: bool
    reason: str
    fallbacks: list[str] = field(default_factory=list)
    cpu: CpuChoice | None = None
    gpu: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.model_id,
            "on_gpu": self.on_gpu,
            "reason": self.reason,
            "fallbacks": self.fallbacks,
            "cpu": self.cpu.to_dict() if self.cpu else None,
            "gpu": self.gpu,
        }


def _why_cpu(gpus: GpuState, cuda_build: bool) -> str:
    if not gpus.has_gpu:
        said = gpus.message.rstrip(".")
        return f"{said}." if "on the CPU" in said else f"{said}: the CPU runs the coder."
    if not cuda_build:
        return (
            "An NVIDIA GPU is here but llama.cpp is a CPU-only build, so the CPU runs the coder (install "
            "the CUDA toolkit and rerun ./launch.sh to build for the GPU)."
        )
    return "No pinned coder fits the GPU's free memory whole, so the CPU runs it."


def choose_coder_for_machine(
    gpus: GpuState,
    cuda_build: bool,
    probe: Callable[[], SpeedProbe | None],
    ram_available: int | None,
) -> MachineChoice:
    """The GPU's choice when a coder fits it whole; else the CPU's choice by measured speed. The
    probe is only run on the CPU path."""
    from models.gpu_choice import choose_model_to_fetch

    gpu_choice = choose_model_to_fetch(gpus, cuda_build) if gpus.has_gpu else None
    if gpu_choice is not None and gpu_choice.on_gpu:
        return MachineChoice(gpu_choice.model_id, True, gpu_choice.reason, gpu=gpu_choice.to_dict())
    cpu = choose_cpu_coder(probe(), ram_available)
    return MachineChoice(
        cpu.model_id,
        False,
        f"{_why_cpu(gpus, cuda_build)} {cpu.reason}",
        cpu.fallbacks,
        cpu,
        gpu_choice.to_dict() if gpu_choice else None,
    )
