"""The coder a CPU runs well, by measurement: the largest of the candidates that fits free memory
with its context and decodes at least MIN_TOKENS_PER_S here.

The figure that decides is the decode speed models.speed_probe measured, scaled to each candidate's
bytes per token. A 1.5B coder that decodes 18 tokens/s is faster than anyone reads and solves about
three times the requests the 0.5B does in about the same seconds per solved request (bench.sealed),
so speed only rules a model out below reading speed. models.machine_coder asks this for the coder
to fetch, models.default_model for the installed coder to use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from models.catalog import catalog_entry
from models.gguf_reader import GGUFError, GGUFInfo
from models.offload_planner import GiB, PlanSettings, plan_offload
from models.speed_probe import FAKE_ENV, SpeedProbe, bytes_per_token, entry_info
from models.vram_probe import GpuState

PLAN_N_CTX = 8192  # the context a coder turn needs in practice, so "fits" means fits in use

MIN_TOKENS_PER_S = 6.0  # about reading speed: slower than this a reply is a wait
# Largest first; only pinned files (SHA-256 known), and never the 3B (research licence).
CPU_CANDIDATES = ("qwen2.5-coder-7b-q4_k_m", "qwen2.5-coder-1.5b-q4_k_m", "qwen2.5-coder-0.5b-q4_k_m")
SMALLEST = CPU_CANDIDATES[-1]
_CPU_ONLY = GpuState("cpu", "counted for the CPU")


@dataclass(frozen=True)
class CpuFit:
    """One candidate on this CPU: its estimated speed and the memory it needs at PLAN_N_CTX."""

    model_id: str
    title: str
    tokens_per_s: float | None  # None: not measured
    ram_needed_bytes: int
    ram_available_bytes: int | None

    @property
    def fast_enough(self) -> bool:
        return self.tokens_per_s is not None and self.tokens_per_s >= MIN_TOKENS_PER_S

    @property
    def fits(self) -> bool:
        return self.ram_available_bytes is None or self.ram_needed_bytes <= self.ram_available_bytes

    def to_dict(self) -> dict[str, Any]:
        speed = None if self.tokens_per_s is None else round(self.tokens_per_s, 1)
        return {
            "id": self.model_id,
            "estimated_tokens_per_s": speed,
            "ram_needed_bytes": self.ram_needed_bytes,
            "fits": self.fits,
            "fast_enough": self.fast_enough,
        }

    def short(self) -> str:
        speed = "speed unknown" if self.tokens_per_s is None else f"about {self.tokens_per_s:.1f} tokens/s"
        why = []
        if not self.fast_enough and self.tokens_per_s is not None:
            why.append(f"under the {MIN_TOKENS_PER_S:.0f} wanted")
        if not self.fits:
            why.append(
                f"needs {_gib(self.ram_needed_bytes)} of memory, {_gib(self.ram_available_bytes)} free"
            )
        return f"{self.title}: {speed}" + (f" ({'; '.join(why)})" if why else "")


def _gib(n: int | None) -> str:
    return "?" if n is None else f"{n / GiB:.1f} GiB"


def ram_needed(info: GGUFInfo) -> int:
    """System memory for the whole model on the CPU at the context a coder turn needs."""
    plan = plan_offload(info, _CPU_ONLY, PlanSettings(n_ctx=PLAN_N_CTX), with_alternatives=False)
    return plan.cpu_bytes_needed


def cpu_fits(model_ids: Sequence[str], probe: SpeedProbe | None, ram_available: int | None) -> list[CpuFit]:
    """Each candidate (in the order given) with its speed here and the memory it needs."""
    fits = []
    for model_id in model_ids:
        entry = catalog_entry(model_id)
        if entry is None:
            continue
        try:
            info = entry_info(entry)
        except GGUFError:
            continue
        speed = probe.tokens_per_s_for(bytes_per_token(info)) if probe else None
        fits.append(CpuFit(model_id, entry.title, speed, ram_needed(info), ram_available))
    return fits


def probe_words(probe: SpeedProbe | None) -> str:
    if probe is None:
        return "This machine's decode speed could not be measured."
    if probe.source == "environment":
        return f"Decode speed given by ${FAKE_ENV}: {probe.bytes_per_s / 1e9:.1f} GB/s of weights."
    when = "measured now" if probe.source == "measured" else f"measured {probe.measured_at[:10]}"
    quiet = probe.quiet_tokens_per_s or probe.tokens_per_s
    busy = ""
    if probe.cpu_share is not None and quiet > probe.tokens_per_s * 1.05:
        busy = (
            f" ({probe.tokens_per_s:.1f} by the clock: other programs held the cores, it got "
            f"{probe.cpu_share:.0%} of its time)"
        )
    return f"Decoding here ({when}): {quiet:.1f} tokens/s on {probe.probe_model}{busy}."


@dataclass(frozen=True)
class CpuChoice:
    model_id: str
    reason: str
    fits: list[CpuFit] = field(default_factory=list)
    probe: SpeedProbe | None = None

    @property
    def fallbacks(self) -> list[str]:
        """Smaller candidates that would also do, best first (a hub-only choice may not download)."""
        after = [f.model_id for f in self.fits]
        later = after[after.index(self.model_id) + 1 :] if self.model_id in after else []
        ok = {f.model_id for f in self.fits if f.fast_enough and f.fits}
        return [m for m in later if m in ok or m == SMALLEST]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.model_id,
            "reason": self.reason,
            "min_tokens_per_s": MIN_TOKENS_PER_S,
            "candidates": [f.to_dict() for f in self.fits],
            "probe": self.probe.to_dict() if self.probe else None,
        }


def choose_cpu_coder(
    probe: SpeedProbe | None,
    ram_available: int | None,
    model_ids: Sequence[str] = CPU_CANDIDATES,
    *,
    what: str = "pinned coder",
) -> CpuChoice:
    """The first (largest) of model_ids fast enough here that fits memory; else the smallest of them.
    `what` names the pool in the reason ("pinned coder", "installed coder")."""
    fits = cpu_fits(model_ids, probe, ram_available)
    if not fits:
        return CpuChoice(SMALLEST, "No coder could be planned for this CPU.", fits, probe)
    chosen = next((f for f in fits if f.fast_enough and f.fits), None)
    passed = fits[: fits.index(chosen) if chosen else -1]
    skipped = f" Larger, passed over: {'; '.join(f.short() for f in passed)}." if passed else ""
    if chosen is None:
        smallest = fits[-1]
        return CpuChoice(
            smallest.model_id,
            f"{probe_words(probe)} No {what} reaches {MIN_TOKENS_PER_S:.0f} tokens/s within free "
            f"memory here, so the smallest: {smallest.title}.{skipped}",
            fits,
            probe,
        )
    return CpuChoice(
        chosen.model_id,
        f"{probe_words(probe)} {chosen.title} would decode about {chosen.tokens_per_s:.1f} tokens/s "
        f"(at least {MIN_TOKENS_PER_S:.0f} wanted: reading speed) and needs "
        f"{_gib(chosen.ram_needed_bytes)} with an 8192-token context ({_gib(ram_available)} free): "
        f"the largest {what} that does both.{skipped}",
        fits,
        probe,
    )
