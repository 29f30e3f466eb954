"""On a machine with an NVIDIA GPU: does the offload plan hold when llama.cpp really loads it?

For each amount of free VRAM (the rest held by a helper process through cudaMalloc), a fresh
process plans and loads the model the way the app does (models.engine.Engine), evaluates a prompt
and decodes, and reads NVML. Reported: the layers planned and loaded, the bytes the plan predicted
against the bytes NVML saw go, whether a load failed and retried, prefill and decode speed; and the
same with two layers more than planned, to see whether the plan left layers on the table. With
--reviewer, a coder and a reviewer planned together (models.pair_hosts) and loaded side by side in one
process, the bytes predicted against those NVML saw go; and at every level, the coder launch.sh would
fetch for that much free VRAM (models.gpu_choice).

    python -m bench.gpu_offload --model M.gguf --free-gib 0 6 4 2.5 --json   (0: VRAM as it is)
    python -m bench.gpu_offload --model 7B.gguf --reviewer 1.5B.gguf --free-gib 0 8 3 --json
"""

from __future__ import annotations

import argparse
import ctypes
import glob
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from models.vram_probe import probe_gpus

GiB = 2**30
MiB = 2**20


def _cudart() -> Any:
    names = ["libcudart.so"] + sorted(glob.glob("/usr/local/cuda*/lib64/libcudart.so*"))
    wheels = os.path.join(sys.prefix, "lib/python3*/site-packages/nvidia/cu*/lib/libcudart.so*")
    names += sorted(glob.glob(wheels))
    for name in names:
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    raise SystemExit("no libcudart found to hold VRAM with")


def hold(nbytes: int) -> None:
    """Allocate nbytes on GPU 0 and keep them until stdin closes."""
    lib = _cudart()
    pointers = []
    left = nbytes
    while left > 0:  # in 1 GiB pieces: one huge allocation can fail where pieces fit
        size = min(left, GiB)
        ptr = ctypes.c_void_p()
        if lib.cudaMalloc(ctypes.byref(ptr), ctypes.c_size_t(size)) != 0:
            break
        pointers.append(ptr)
        left -= size
    print("ready", flush=True)
    sys.stdin.read()


def _free_bytes() -> int:
    state = probe_gpus()
    return state.best_device().free_bytes if state.has_gpu else 0


def measure(model: Path, n_ctx: int, layers: int | None) -> dict[str, Any]:
    from models.chat_engine import EngineSettings
    from models.engine import Engine

    free_before = _free_bytes()
    engine = Engine(model, EngineSettings(n_ctx=n_ctx, n_gpu_layers=layers))
    report = engine.load()
    llm = engine._llm
    length = min(512, engine.settings.n_ctx - 64)  # the prompt and 64 decoded tokens fit the context
    prompt = [max(llm.token_bos(), 0)] + [100 + i % 1000 for i in range(length - 1)]
    llm.reset()
    started = time.perf_counter()
    llm.eval(prompt)
    prefill_s = time.perf_counter() - started
    started = time.perf_counter()
    for i in range(64):
        llm.eval([200 + i])
    decode_s = time.perf_counter() - started
    free_after = _free_bytes()
    plan = report.plan
    return {
        "requested_layers": layers,
        "planned_layers": plan.n_gpu_layers,
        "max_layers": plan.max_layers,
        "loaded_layers": report.n_gpu_layers,
        "n_ctx": engine.settings.n_ctx,
        "gpu_offload_supported": report.gpu_offload_supported,
        "free_before_mib": round(free_before / MiB),
        "predicted_gpu_mib": round(plan.gpu_bytes_needed / MiB),
        "measured_gpu_mib": round((free_before - free_after) / MiB),
        "free_after_mib": round(free_after / MiB),
        "load_messages": report.messages,
        "warnings": plan.warnings,
        "prefill_tok_s": round(len(prompt) / prefill_s, 1),
        "decode_tok_s": round(64 / decode_s, 1),
    }


def measure_pair(coder: Path, reviewer: Path, n_ctx: int) -> dict[str, Any]:
    """Both models planned together and loaded in this process, as the app loads a pair."""
    from models.chat_engine import EngineSettings
    from models.engine import Engine
    from models.pair_hosts import pair_settings

    free_before = _free_bytes()
    coder_settings, reviewer_settings, plan = pair_settings(coder, reviewer, EngineSettings(n_ctx=n_ctx))
    engines = [Engine(coder, coder_settings), Engine(reviewer, reviewer_settings)]
    reports = [engine.load() for engine in engines]
    free_after = _free_bytes()
    predicted = plan.gpu_bytes_needed
    return {
        "pair": True,
        "planned_layers": [plan.coder.n_gpu_layers, plan.reviewer.n_gpu_layers],
        "max_layers": [plan.coder.max_layers, plan.reviewer.max_layers],
        "loaded_layers": [report.n_gpu_layers for report in reports],
        "n_ctx": [plan.coder.n_ctx, plan.reviewer.n_ctx],
        "free_before_mib": round(free_before / MiB),
        "predicted_gpu_mib": round(predicted / MiB),
        "measured_gpu_mib": round((free_before - free_after) / MiB),
        "free_after_mib": round(free_after / MiB),
        "explanation": plan.explanation,
        "warnings": plan.warnings,
    }


def fetch_choice() -> dict[str, Any]:
    from models.gpu_choice import choose_model_to_fetch, cuda_build_in_place

    return choose_model_to_fetch(probe_gpus(), cuda_build_in_place()).to_dict()


def _child(args: list[str], layers: int | None = None) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "bench.gpu_offload", *args]
    cmd += [] if layers is None else ["--layers", str(layers)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return {"requested_layers": layers, "error": (done.stderr or done.stdout).strip()[-600:]}
    return json.loads(lines[-1])


def run_level(model: Path, n_ctx: int, free_gib: float, reviewer: Path | None = None) -> dict[str, Any]:
    holder = None
    if free_gib > 0:
        to_hold = max(0, _free_bytes() - int(free_gib * GiB))
        holder = subprocess.Popen(
            [sys.executable, "-m", "bench.gpu_offload", "--hold", str(to_hold)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert holder.stdout is not None
        holder.stdout.readline()
    common = ["--model", str(model), "--n-ctx", str(n_ctx)]
    try:
        planned = _child(common + ["--measure"])
        rows = [planned]
        more = planned.get("planned_layers")
        if isinstance(more, int) and more < planned["max_layers"]:
            rows.append(_child(common + ["--measure"], min(planned["max_layers"], more + 2)))
        level = {"free_gib_asked": free_gib, "runs": rows, "fetch_choice": _child(["--choose"])}
        if reviewer is not None:
            level["pair"] = _child(common + ["--reviewer", str(reviewer), "--measure-pair"])
        return level
    finally:
        if holder is not None:
            holder.communicate("", timeout=60)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path)
    parser.add_argument("--n-ctx", type=int, default=4096)
    parser.add_argument("--free-gib", type=float, nargs="+", default=[0, 6, 4, 2.5])
    parser.add_argument("--reviewer", type=Path, default=None, help="a second model planned with --model")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--measure-pair", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--choose", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--layers", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--hold", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.hold is not None:
        hold(args.hold)
        return
    if args.measure:
        print(json.dumps(measure(args.model, args.n_ctx, args.layers)))
        return
    if args.measure_pair:
        print(json.dumps(measure_pair(args.model, args.reviewer, args.n_ctx)))
        return
    if args.choose:
        print(json.dumps(fetch_choice()))
        return
    levels = [run_level(args.model, args.n_ctx, gib, args.reviewer) for gib in args.free_gib]
    print_levels(levels)
    if args.json:
        print(json.dumps({"date": time.strftime("%Y-%m-%d"), "model": str(args.model), "levels": levels}))


def print_levels(levels: list[dict[str, Any]]) -> None:
    for level in levels:
        for row in level["runs"]:
            if "error" in row:
                print(f"free {level['free_gib_asked']} GiB, layers {row['requested_layers']}: {row['error']}")
                continue
            print(
                f"free {row['free_before_mib']} MiB: planned {row['planned_layers']}/{row['max_layers']}"
                f" loaded {row['loaded_layers']} (asked {row['requested_layers']}); GPU predicted"
                f" {row['predicted_gpu_mib']} MiB, measured {row['measured_gpu_mib']} MiB; left"
                f" {row['free_after_mib']} MiB; prefill {row['prefill_tok_s']} tok/s, decode"
                f" {row['decode_tok_s']} tok/s; {'; '.join(row['load_messages'][1:] + row['warnings'])}"
            )
        choice = level["fetch_choice"]
        print(f"  launch.sh would fetch: {choice.get('id')} ({choice.get('reason') or choice.get('error')})")
        pair = level.get("pair")
        if pair is not None and "error" in pair:
            print(f"  pair: {pair['error']}")
        elif pair is not None:
            print(
                f"  pair: planned {pair['planned_layers']} of {pair['max_layers']} layers, loaded"
                f" {pair['loaded_layers']}; GPU predicted {pair['predicted_gpu_mib']} MiB, measured"
                f" {pair['measured_gpu_mib']} MiB; left {pair['free_after_mib']} MiB"
            )


if __name__ == "__main__":
    main()
