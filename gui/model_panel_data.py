"""What the model panel shows: the loaded model and its plan, live VRAM/RAM gauges, the last
reply's speed, and a plan preview for other choices. Plain functions; the panel polls them."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from gui.user_settings import UserSettings
from models.catalog import CATALOG, ModelNotFoundError, catalog_entry, display_name
from models.chat_engine import EngineError, EngineSettings
from models.engine import Engine
from models.memory import available_ram_bytes, process_rss_bytes, total_ram_bytes
from models.model_host import ModelHost
from models.model_path import resolve_model
from models.openai_engine import RemoteLoadReport
from models.vram_probe import GpuState, probe_gpus

if TYPE_CHECKING:
    from models.machine_coder import MachineChoice

LOCAL_FILE = "local .gguf file…"
GiB = 1024**3


def model_choices() -> list[tuple[str, str]]:
    """The catalogue, each model marked as here or as a download of its size, and a local file."""
    return [(f"{entry.title} · {_where(entry.id, entry.size_bytes)}", entry.id) for entry in CATALOG] + [
        (LOCAL_FILE, LOCAL_FILE)
    ]


def _where(model_id: str, size: int) -> str:
    return f"{size / GiB:.1f} GiB download" if download_needed(model_id) else "on this machine"


SAME_AS_CODER = ""  # the reviewer-model choice that means one model for every role


def reviewer_choices() -> list[tuple[str, str]]:
    coders = [(entry.title, entry.id) for entry in CATALOG if entry.id.startswith("qwen2.5-coder")]
    return [("Same as the coder", SAME_AS_CODER), *coders]


def paired_settings(
    model_path: Path, reviewer: str, settings: UserSettings
) -> tuple[EngineSettings, tuple[Path, EngineSettings] | None, str]:
    """Engine settings for the coder and, when a reviewer model is chosen, its path and settings,
    both pinned to one plan (models.pair_hosts), with the plan as Markdown. Raises a ValueError
    (ModelNotFoundError, GGUFError) for a reviewer that cannot be used."""
    base = engine_settings_of_user(settings)
    if not reviewer:
        return base, None, ""
    from models.pair_hosts import pair_settings

    reviewer_path = resolve_model(reviewer)
    coder_settings, reviewer_settings, plan = pair_settings(model_path, reviewer_path, base)
    text = "\n".join(f"- {escape(line)}" for line in plan.text().splitlines())
    return coder_settings, (reviewer_path, reviewer_settings), f"**Two models, one plan**\n{text}"


def engine_settings_of_user(settings: UserSettings) -> EngineSettings:
    return EngineSettings(n_ctx=settings.n_ctx, kv_type=settings.kv_type, n_gpu_layers=settings.n_gpu_layers)


def resolve_choice(choice: str, local_path: str) -> Path:
    """The .gguf for a panel choice; raises ModelNotFoundError with what to do."""
    if choice == LOCAL_FILE:
        if not local_path.strip():
            raise ModelNotFoundError("Enter the path of a .gguf file.")
        return resolve_model(local_path.strip())
    return resolve_model(choice)


def check_model_file(path: Path) -> None:
    """Raise (a ValueError) unless the file reads as a GGUF chat model with transformer blocks."""
    from models.gguf_reader import read_gguf

    info = read_gguf(path)
    if info.block_count <= 0:
        raise ValueError(f"{path.name} has no transformer blocks; it is not a chat model.")


def plan_preview(choice: str, local_path: str, settings: UserSettings) -> str:
    """The offload plan for a choice, computed from the file's header and free VRAM, not loaded."""
    try:
        path = resolve_choice(choice, local_path)
        plan = Engine(path, engine_settings_of_user(settings)).plan()
    except (ModelNotFoundError, EngineError) as exc:
        return f"**Cannot plan:** {exc}"
    lines = [f"Context {plan.n_ctx} tokens ({plan.n_ctx_reason})", *plan.text().splitlines()]
    return "\n".join(f"- {line}" for line in lines)


def model_markdown(host: ModelHost, reason: str = "") -> str:
    status = host.status()
    engine = host.engine
    why = f"\n\n*Why this model:* {escape(reason)}" if reason else ""
    if engine is None or engine.info is None or engine.load_report is None:
        return f"**Model:** {status.message}{why}"
    if isinstance(engine.load_report, RemoteLoadReport):
        return _remote_markdown(engine.load_report)
    info, report, settings = engine.info, engine.load_report, engine.settings
    where = (
        f"{report.n_gpu_layers} of {report.plan.max_layers} layers on the GPU"
        if report.n_gpu_layers
        else ("CPU only (no usable GPU)" if not report.plan.device else "CPU only")
    )
    plan = "\n".join(f"- {line}" for line in report.plan.text().splitlines())
    title = escape(display_name(engine.model_path))
    return (
        f"**{title}** · {info.file_type} · {info.file_size / GiB:.2f} GiB\n\n"
        f"Context {settings.n_ctx} tokens ({escape(report.plan.n_ctx_reason)}) · KV cache {settings.kv_type}"
        f" · n_gpu_layers {report.n_gpu_layers} ({where}) · loaded in {report.load_s:.1f} s{why}"
        f"\n\n**Plan**\n{plan}"
    )


def _remote_markdown(report: RemoteLoadReport) -> str:
    """A model on a server: where, which, what context; the URL is shown, a key never is."""
    notes = "".join(f"\n\n{escape(note)}" for note in report.messages)
    return (
        f"**{escape(display_name(report.model))}** · backend: OpenAI-compatible server at "
        f"`{escape(report.url)}`\n\nContext {report.n_ctx} tokens ({escape(report.n_ctx_source)})"
        f"{notes}\n\n**Plan**\n- The VRAM planner is "
        "skipped: the server holds the model and decides what goes on its GPU. Choosing a model "
        "below and pressing Load runs it in this process instead."
    )


def _gauge(label: str, used: int, total: int) -> str:
    share = 0 if total <= 0 else min(100, round(100 * used / total))
    return (
        f'<div class="lc-gauge-row"><div>{escape(label)}: {used / GiB:.1f} / {total / GiB:.1f} GiB '
        f'({share} %)</div><div class="lc-gauge"><div style="width:{share}%"></div></div></div>'
    )


def context_gauge_html(host: ModelHost | None) -> str:
    """How much of the context window the last call used (prompt and reply), as a gauge."""
    engine = host.engine if host else None
    stats = engine.last_stats if engine else None
    if stats is None:
        return ""
    used, total = stats.prompt_tokens + stats.completion_tokens, engine.settings.n_ctx
    share = 0 if total <= 0 else min(100, round(100 * used / total))
    return (
        f'<div class="lc-gauge-row"><div>Context, last call: {used:,} / {total:,} tokens ({share} %)</div>'
        f'<div class="lc-gauge"><div style="width:{share}%"></div></div></div>'
    )


def gauges_html(gpus: GpuState | None = None, host: ModelHost | None = None) -> str:
    gpus = gpus or probe_gpus()
    parts = [context_gauge_html(host)] if host is not None else []
    parts += [_gauge(f"GPU {d.index} {d.name} VRAM", d.used_bytes, d.total_bytes) for d in gpus.devices]
    if not gpus.devices:
        parts.append(f'<div class="lc-empty">No GPU in use: {escape(gpus.message or "none found")}.</div>')
    total, available = total_ram_bytes(), available_ram_bytes()
    if total and available is not None:
        parts.append(_gauge("System RAM", total - available, total))
    rss = process_rss_bytes()
    if rss is not None:
        parts.append(f'<div class="lc-empty">LocalCrew process: {rss / GiB:.2f} GiB resident</div>')
    return "".join(parts)


def last_reply_markdown(host: ModelHost) -> str:
    engine = host.engine
    stats = engine.last_stats if engine else None
    if stats is None:
        return "Last reply: none yet."
    return (
        f"Last reply: {stats.decode_tokens_per_s:.1f} tokens/s · first token "
        f"{stats.time_to_first_token_s:.2f} s · {stats.completion_tokens} tokens"
    )


def download_needed(choice: str) -> bool:
    entry = catalog_entry(choice)
    if entry is None or entry.repo is None:
        return False
    from models.model_cache import cached_model_path

    return cached_model_path(entry) is None


def machine_choice() -> MachineChoice:
    """The coder `launch.sh` would fetch here: on a GPU the largest that fits it whole, else the
    largest this CPU decodes fast enough by the measured speed (models.machine_coder)."""
    from models.gpu_choice import cuda_build_in_place
    from models.machine_coder import choose_coder_for_machine
    from models.speed_probe import speed_probe_or_none

    return choose_coder_for_machine(
        probe_gpus(), cuda_build_in_place(), speed_probe_or_none, available_ram_bytes()
    )


def best_coder_for_machine(choice: MachineChoice | None = None) -> tuple[str, str]:
    """The coder for this machine and the words why, as the page shows them: (id, markdown)."""
    choice = choice or machine_choice()
    entry = catalog_entry(choice.model_id)
    title = entry.title if entry else choice.model_id
    return choice.model_id, f"**Best coder for this machine: {escape(title)}.** {escape(choice.reason)}"
