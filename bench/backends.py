"""What driving the model through an OpenAI-compatible server costs against llama.cpp in process.

    python -m bench.backends [--model ID|PATH] [--limit 10] [--rounds 1] [--concurrent 4] [--json]

The same crew requests (the first N of bench/crew_requests/) go through the one crew factory
twice: on the in-process engine and on llama-cpp-python's server started here on loopback, same
model file, same context, batch and thread count. Each request runs on a fresh copy of its
workspace; the two backends alternate which goes first, so a machine that gets busier during the
run does not load one side only. Reported: seconds per request, generated tokens per request (the
replies can differ a little: the server renders the chat template itself), seconds per generated
token, and the server's overhead as a ratio of each. With --concurrent N, the first N requests are then
sent to the server one after another and then all at once: a server that batches (vLLM,
llama-server --parallel) serves them faster together; llama_cpp.server has no batching and
serves them one at a time. Ends with one JSON line with --json.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import models.llama_libs  # noqa: F401, I001  (llama.cpp's libraries before numpy's)
import offline  # noqa: F401, I001
from agents.crew_factory import build_crew
from agents.events import EventBus
from agents.run.runner import CrewSettings
from bench.crew import AcceptanceRequest, load_requests, prepare_workspace
from bench.llama_server import llama_server
from bench.results_dir import dated
from models.chat_engine import ChatEngine, EngineSettings, GenerationSettings
from models.engine import Engine
from models.model_path import resolve_model
from models.openai_engine import OpenAIEngine, RemoteSettings

DEFAULT_OUT = dated("backends")
N_CTX = 4096  # the IDE's default context, on both sides
# One chat call without the crew around it: the transport's own cost, with less noise than a crew run.
CHAT_PROMPT = [{"role": "user", "content": "Write a Python function is_prime(n) with a docstring."}]
CHAT_GENERATION = GenerationSettings(max_tokens=128, temperature=0.0, repeat_penalty=1.0)


@dataclass
class RunFigures:
    request: str
    backend: str
    seconds: float
    llm_seconds: float
    llm_calls: int
    tokens: int
    completed: bool
    approved: bool


def run_one(engine: ChatEngine, backend: str, request: AcceptanceRequest, rounds: int) -> RunFigures:
    with tempfile.TemporaryDirectory(prefix=f"bench-backends-{backend}-") as folder:
        workspace = Path(folder)
        prepare_workspace(request, workspace)
        began = time.perf_counter()
        summary = build_crew(engine, workspace, EventBus(), CrewSettings(rounds=rounds)).run(request.text)
        seconds = time.perf_counter() - began
    return RunFigures(
        request.name,
        backend,
        seconds,
        summary.llm_seconds,
        summary.llm_calls,
        summary.tokens_generated,
        summary.completed,
        summary.approved,
    )


def concurrent_runs(
    engine: ChatEngine, requests: list[AcceptanceRequest], rounds: int
) -> tuple[float, list[RunFigures]]:
    """All the requests at once, each in its own thread and workspace; the wall time for all."""
    results: list[RunFigures] = []
    lock = threading.Lock()

    def work(request: AcceptanceRequest) -> None:
        figures = run_one(engine, "server-concurrent", request, rounds)
        with lock:
            results.append(figures)

    threads = [threading.Thread(target=work, args=(request,)) for request in requests]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - began, results


def chat_calls(local: ChatEngine, server: ChatEngine, calls: int) -> dict[str, Any]:
    """The same chat call on both engines, alternating which goes first; medians and paired ratio."""
    seconds: dict[str, list[float]] = {"local": [], "server": []}
    tokens: dict[str, list[int]] = {"local": [], "server": []}
    for number in range(calls):
        sides: list[tuple[str, ChatEngine]] = [("local", local), ("server", server)]
        for name, engine in sides if number % 2 == 0 else sides[::-1]:
            began = time.perf_counter()
            _, stats = engine.chat(CHAT_PROMPT, CHAT_GENERATION)
            seconds[name].append(time.perf_counter() - began)
            tokens[name].append(stats.completion_tokens)
    paired = [s / max(loc, 1e-9) for s, loc in zip(seconds["server"], seconds["local"], strict=True)]
    return {
        "calls": calls,
        "tokens_per_call": {name: statistics.median(values) for name, values in tokens.items()},
        "local_median_s": statistics.median(seconds["local"]),
        "server_median_s": statistics.median(seconds["server"]),
        "median_paired_ratio": statistics.median(paired),
    }


def _side(runs: list[RunFigures]) -> dict[str, Any]:
    seconds = sum(r.seconds for r in runs)
    tokens = sum(r.tokens for r in runs)
    return {
        "s_per_request": seconds / len(runs),
        "median_s": statistics.median(r.seconds for r in runs),
        "tokens_per_request": tokens / len(runs),
        "s_per_token": seconds / tokens if tokens else None,
        "llm_s_per_request": sum(r.llm_seconds for r in runs) / len(runs),
        "completed": sum(r.completed for r in runs),
        "approved": sum(r.approved for r in runs),
    }


def summarize(runs: list[RunFigures], model: str, threads: int, rounds: int) -> dict[str, Any]:
    local = _side([r for r in runs if r.backend == "local"])
    server = _side([r for r in runs if r.backend == "server"])
    both = local["s_per_token"] and server["s_per_token"]
    per_token = server["s_per_token"] / local["s_per_token"] if both else None
    return {
        "date": datetime.date.today().isoformat(),
        "model": model,
        "threads": threads,
        "rounds": rounds,
        "requests": len(runs) // 2,
        "load_average_start": os.getloadavg()[0],
        "local": local,
        "server": server,
        "overhead_ratio": server["s_per_request"] / local["s_per_request"],
        "overhead_ratio_per_token": per_token,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.backends", description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None, help="catalog id or .gguf path (default: the IDE's default)")
    parser.add_argument("--limit", type=int, default=10, help="the first N acceptance requests (0: none)")
    parser.add_argument("--chat-calls", type=int, default=20, help="single chat calls per side (0: skip)")
    parser.add_argument("--rounds", type=int, default=1, help="crew rounds per request")
    parser.add_argument("--threads", type=int, default=max(1, (os.cpu_count() or 2) // 2))
    parser.add_argument("--concurrent", type=int, default=4, help="N at once on the server (0: skip)")
    parser.add_argument("--json", action="store_true", help="end with the summary as one JSON line")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)

    load_start = os.getloadavg()[0]
    path = resolve_model(args.model)
    requests = load_requests()[: args.limit]
    local = Engine(path, EngineSettings(n_ctx=N_CTX, n_threads=args.threads))
    local.load()
    runs: list[RunFigures] = []
    with llama_server(path, n_ctx=N_CTX, threads=args.threads) as url:
        server = OpenAIEngine(RemoteSettings(url, model=str(path), n_ctx=N_CTX))
        server.load()
        try:
            chat = chat_calls(local, server, args.chat_calls) if args.chat_calls else None
            if chat:
                print(
                    f"one chat call ({chat['tokens_per_call']['local']:.0f} tokens): in process "
                    f"{chat['local_median_s']:.2f} s, server {chat['server_median_s']:.2f} s (medians); "
                    f"paired ratio {chat['median_paired_ratio']:.3f}",
                    flush=True,
                )
            for number, request in enumerate(requests):
                sides: list[tuple[ChatEngine, str]] = [(local, "local"), (server, "server")]
                for engine, backend in sides if number % 2 == 0 else sides[::-1]:
                    figures = run_one(engine, backend, request, args.rounds)
                    runs.append(figures)
                    print(
                        f"{request.name:<28} {backend:<6} {figures.seconds:6.1f} s  "
                        f"{figures.tokens:5d} tokens  {figures.llm_calls} calls",
                        flush=True,
                    )
            result = summarize(runs, path.name, args.threads, args.rounds) if requests else {}
            result |= {"load_average_start": load_start, "chat": chat}
            if args.concurrent > 1 and requests:
                # The baseline is measured right before, not taken from the runs above: on a shared
                # machine the load of ten minutes ago is not the load now.
                batch = requests[: args.concurrent]
                began = time.perf_counter()
                runs.extend(run_one(server, "server-one-by-one", request, args.rounds) for request in batch)
                one_by_one = time.perf_counter() - began
                wall, together = concurrent_runs(server, batch, args.rounds)
                runs.extend(together)
                result["concurrent"] = {
                    "n": len(batch),
                    "wall_s": wall,
                    "sequential_s": one_by_one,
                    "throughput_ratio": one_by_one / wall,
                    "server": "llama_cpp.server (serves one request at a time; no batching)",
                }
        finally:
            server.close()
            local.close()
    result["load_average_end"] = os.getloadavg()[0]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(
        json.dumps({"summary": result, "runs": [asdict(r) for r in runs]}, indent=1)
    )
    local_side, server_side = result.get("local"), result.get("server")
    if local_side and server_side:
        print(
            f"in process: {local_side['s_per_request']:.1f} s/request "
            f"({local_side['tokens_per_request']:.0f} tokens) | llama_cpp.server: "
            f"{server_side['s_per_request']:.1f} s/request ({server_side['tokens_per_request']:.0f} tokens)"
            f" | overhead {result['overhead_ratio']:.3f}x per request, "
            f"{result['overhead_ratio_per_token'] or float('nan'):.3f}x per generated token"
        )
    if "concurrent" in result:
        c = result["concurrent"]
        print(f"{c['n']} at once on the server: {c['wall_s']:.1f} s, one by one {c['sequential_s']:.1f} s")
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
