"""Which coder to fetch for this machine: the best pinned one whose every layer fits the free VRAM.

`./launch.sh` (via `app.py pick-model --fetch`) and the Model tab's one button ask this on a GPU
machine, so a gaming PC gets the 7B rather than the 0.5B the CPU path installs. A model not yet
downloaded is planned from its catalog shape (models.model_shapes), an installed one from its file;
both go through the same offload planner at the same context the app then loads with, so the model
fetched is the model `models.default_model` then picks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from models.catalog import CatalogEntry, catalog_entry
from models.default_model import PLAN_N_CTX
from models.gguf_reader import GGUFError, GGUFInfo
from models.offload_planner import GiB, OffloadPlan, PlanSettings, plan_offload
from models.vram_probe import GpuState

# Best first; only entries with a pinned SHA-256 are fetched. The 3B is left out as in
# models.default_model (research licence); the user can still download it by name.
FETCH_PREFERENCE = ("qwen2.5-coder-7b-q4_k_m", "qwen2.5-coder-1.5b-q4_k_m", "qwen2.5-coder-0.5b-q4_k_m")
CPU_CODER = "qwen2.5-coder-0.5b-q4_k_m"
# Published HumanEval (Qwen2.5-Coder report, instruct models), to say what the bigger file buys.
HUMANEVAL = {
    "qwen2.5-coder-7b-q4_k_m": 88.4,
    "qwen2.5-coder-1.5b-q4_k_m": 70.7,
    "qwen2.5-coder-0.5b-q4_k_m": 61.6,
}


@dataclass(frozen=True)
class FetchChoice:
    model_id: str
    on_gpu: bool  # False: the CPU path (no GPU, no CUDA build, or nothing fits)
    reason: str
    plan: OffloadPlan | None = None

    def to_dict(self) -> dict[str, object]:
        plan = self.plan
        return {
            "id": self.model_id,
            "on_gpu": self.on_gpu,
            "reason": self.reason,
            "gpu_bytes_needed": plan.gpu_bytes_needed if plan else None,
            "free_vram_bytes": plan.free_vram_bytes if plan else None,
        }


def cuda_build_in_place() -> bool:
    """Whether the installed llama.cpp can offload to a GPU (a CPU build cannot, whatever the card)."""
    try:
        import llama_cpp
    except ImportError:
        return False
    return bool(llama_cpp.llama_supports_gpu_offload())


def _planning_info(entry: CatalogEntry) -> GGUFInfo:
    """The installed file's header when it is here (exact), else the catalog's shape (estimate)."""
    from models.gguf_split import read_model_gguf
    from models.model_cache import cached_model_path
    from models.model_shapes import shape_info

    path = cached_model_path(entry)
    if path is not None:
        try:
            return read_model_gguf(path)
        except GGUFError:
            pass  # a damaged file is planned as the catalog says; the load will say what is wrong
    return shape_info(entry)


def _whole_plan(
    entry: CatalogEntry, gpus: GpuState, info_for: Callable[[CatalogEntry], GGUFInfo]
) -> OffloadPlan:
    return plan_offload(info_for(entry), gpus, PlanSettings(n_ctx=PLAN_N_CTX), with_alternatives=False)


def _gib(n: int) -> str:
    return f"{n / GiB:.1f} GiB"


def _fits_reason(entry: CatalogEntry, plan: OffloadPlan, passed: list[str]) -> str:
    terms, device = plan.terms, plan.device
    assert device is not None
    score = HUMANEVAL.get(entry.id)
    better = ""
    if score and entry.id != CPU_CODER:
        better = f" (HumanEval {score} published, against {HUMANEVAL[CPU_CODER]} for the 0.5B)"
    elif score:
        better = f" (HumanEval {score} published)"
    skipped = f"; {', '.join(passed)} would not fit whole" if passed else ""
    needs = (
        f"weights {_gib(terms['gpu_weights'])}, KV cache {_gib(terms['gpu_kv'])}, compute "
        f"{_gib(terms['gpu_compute'])}, CUDA context {_gib(terms['cuda_context'])}, "
        f"{_gib(terms['margin'])} kept free"
    )
    return (
        f"{device.name} has {_gib(plan.free_vram_bytes)} free. {entry.title} needs "
        f"{_gib(plan.gpu_bytes_needed)} with all {plan.max_layers} layers on the GPU and a "
        f"{plan.n_ctx}-token context ({needs}): the best pinned coder that fits whole{better}{skipped}."
    )


def choose_model_to_fetch(
    gpus: GpuState,
    cuda_build: bool,
    info_for: Callable[[CatalogEntry], GGUFInfo] = _planning_info,
) -> FetchChoice:
    """The coder this machine should have, and why, in words launch.sh and the Model tab print."""
    if not gpus.has_gpu:
        return FetchChoice(CPU_CODER, False, f"{gpus.message}: the 0.5B coder, sized for the CPU.")
    if not cuda_build:
        return FetchChoice(
            CPU_CODER,
            False,
            "An NVIDIA GPU is here but llama.cpp is a CPU-only build, so a bigger model would run on "
            "the CPU: the 0.5B coder. Install the CUDA toolkit and rerun ./launch.sh to build for the GPU.",
        )
    passed: list[str] = []
    for model_id in FETCH_PREFERENCE:
        entry = catalog_entry(model_id)
        if entry is None or entry.sha256 is None:
            continue
        plan = _whole_plan(entry, gpus, info_for)
        if plan.n_gpu_layers == plan.max_layers:
            return FetchChoice(model_id, True, _fits_reason(entry, plan, passed), plan)
        passed.append(entry.title)
    device = gpus.best_device()
    free = _gib(device.free_bytes) if device else "no memory"
    return FetchChoice(
        CPU_CODER, False, f"The GPU has {free} free, too little for any coder whole: the 0.5B on the CPU."
    )
