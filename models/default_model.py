"""Which model the app uses when the user names none: the best coder present that fits this machine.

On a GPU the largest installed coder whose every layer fits in free VRAM wins (a 7B beats a 1.5B).
On the CPU, the largest installed coder that fits free memory with its context and decodes at least
about 6 tokens/s here, by the measured decode speed (models.speed_probe, models.cpu_coder): on a
2-core machine that is the 1.5B (about 18 tokens/s), which solves about three times the requests
the 0.5B does in about the same seconds per solved request. With one coder installed it is used
without measuring. The bundled SmolLM2-135M is the fallback when no coder is installed: it runs
anywhere but cannot really code. A model the user names (--model, the saved settings) always wins;
this is only asked when none is named.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from models.catalog import BUNDLED_ID, bundled_model_path, catalog_entry
from models.cpu_coder import PLAN_N_CTX, choose_cpu_coder
from models.model_cache import cached_model_path
from models.speed_probe import SpeedProbe
from models.vram_probe import GpuState

# Best first. The 3B is left out on purpose: its licence is research-only, so it is never picked
# for the user; they can still choose it by name.
GPU_PREFERENCE = (
    "qwen2.5-coder-7b-q5_k_m",
    "qwen2.5-coder-7b-q4_k_m",
    "qwen2.5-coder-1.5b-q4_k_m",
    "qwen2.5-coder-0.5b-q4_k_m",
)


@dataclass(frozen=True)
class DefaultChoice:
    model_id: str
    path: Path | None  # None only when not even the bundled model is installed
    reason: str

    def to_dict(self) -> dict[str, object]:
        return {"id": self.model_id, "path": str(self.path) if self.path else None, "reason": self.reason}


def _installed(model_id: str) -> Path | None:
    entry = catalog_entry(model_id)
    if entry is None:
        return None
    return bundled_model_path() if entry.repo is None else cached_model_path(entry)


def _fits_on_gpu(path: Path, gpus: GpuState) -> bool:
    from models.gguf_reader import GGUFError
    from models.gguf_split import read_model_gguf
    from models.memory import available_ram_bytes
    from models.offload_planner import PlanSettings, plan_offload

    try:
        info = read_model_gguf(path)  # a split model is planned whole
    except GGUFError:
        return False
    plan = plan_offload(info, gpus, PlanSettings(n_ctx=PLAN_N_CTX), available_ram_bytes())
    return plan.n_gpu_layers == plan.max_layers


def _probe_or_none() -> SpeedProbe | None:
    from models.speed_probe import speed_probe_or_none

    return speed_probe_or_none()


def _ram_available() -> int | None:
    from models.memory import available_ram_bytes

    return available_ram_bytes()


def choose_default_model(
    gpus: GpuState | None = None,
    installed: Callable[[str], Path | None] = _installed,
    probe: Callable[[], SpeedProbe | None] = _probe_or_none,
    ram_available: Callable[[], int | None] = _ram_available,
) -> DefaultChoice:
    """The model to use when none is named, and why, in words the model panel and doctor show.
    `probe` is called only when the CPU has more than one installed coder to choose from."""
    if gpus is None:
        from models.vram_probe import probe_gpus

        gpus = probe_gpus()
    present = {model_id: path for model_id in GPU_PREFERENCE if (path := installed(model_id))}
    if gpus.has_gpu:
        for model_id, path in present.items():
            if _fits_on_gpu(path, gpus):
                title = catalog_entry(model_id).title  # type: ignore[union-attr]
                return DefaultChoice(
                    model_id, path, f"{title}: the largest installed coder that fits the GPU whole."
                )
    if present:
        where = "the GPU has no room for a larger one" if gpus.has_gpu else "no GPU, so the CPU runs it"
        return _cpu_default(present, where, probe, ram_available)
    return DefaultChoice(
        BUNDLED_ID,
        installed(BUNDLED_ID),
        "SmolLM2-135M (bundled): no coder model is installed. It runs anywhere but cannot really code;"
        " install one with `python app.py download qwen2.5-coder-0.5b-q4_k_m`.",
    )


def _cpu_default(
    present: dict[str, Path],
    where: str,
    probe: Callable[[], SpeedProbe | None],
    ram_available: Callable[[], int | None],
) -> DefaultChoice:
    """The largest installed coder fast enough on this CPU (the only one, when one is installed)."""
    if len(present) == 1:
        model_id, path = next(iter(present.items()))
        title = catalog_entry(model_id).title  # type: ignore[union-attr]
        return DefaultChoice(model_id, path, f"{title}: the installed coder for this machine ({where}).")
    choice = choose_cpu_coder(probe(), ram_available(), list(present), what="installed coder")
    model_id = choice.model_id if choice.model_id in present else list(present)[-1]
    title = catalog_entry(model_id).title  # type: ignore[union-attr]
    return DefaultChoice(model_id, present[model_id], f"{title} ({where}). {choice.reason}")
