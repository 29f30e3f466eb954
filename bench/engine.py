"""Engine benchmark: LocalCrew's engine against a plain llama_cpp.Llama, same model, same process.

    python -m bench.engine [--model ID|PATH] [--rounds 3] [--max-tokens 128] [--parts ...] [--json]

Both run the same prompts at temperature 0, alternating which goes first, so background load hits
both alike. Decode speed is measured the same way for both: streamed pieces after the first,
divided by the time from the first piece to the last. The multi-turn part replays a 4-turn chat
through the engine and reports, per turn, prompt tokens llama.cpp evaluated / prompt tokens sent;
the plain Llama's own counter (llama_perf_context n_p_eval) is shown beside it as a cross-check.
The speed-up figures (constrained_ratio, rewrite_speedup) are bench/engine_speedups.py's.
batch4_speedup: total decode tokens/s of 4 replies decoded together (Engine.complete_many, sampled
at temperature 0.7, seeds apart) over decode tokens/s of one chat() reply with the same settings,
same prompts, same run, alternating which goes first. Beside it, where a batch step's time went:
llama_decode, sampling, and making the batch context per call; `--gpu-sampling` runs each
sequence's sampling chain in the GPU's graph where the model runs there (models.batch_decode), and
`--batch-n N` decodes N replies together instead of 4 (the figures are then named batchN_...).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import dataclass, replace
from typing import Any

import models.llama_libs  # noqa: F401, I001  (llama.cpp's libraries before numpy's)
import offline  # noqa: F401, I001
from bench import engine_speedups
from models.chat_engine import CallStats, EngineSettings, GenerationSettings, spread_settings
from models.engine import Engine
from models.model_path import resolve_model

PARTS = ("decode", "turns", "constrained", "rewrite", "rewrite-llama-cpp", "batch")
BATCH_N = 4
BATCH_PROMPTS = 3  # of PROMPTS, per round

PROMPTS = [
    "Write a Python function that checks whether a string is a palindrome.",
    "Explain what a Python list comprehension is, with an example.",
    "Write a function that returns the n-th Fibonacci number iteratively.",
    "How do I read a JSON file in Python? Show code.",
    "Write a class Stack with push, pop and peek methods.",
    "Write a function that counts the words in a text file.",
]
CHAT_TURNS = [
    "Write a Python function that parses a CSV line into a list of fields.",
    "Now make it handle quoted fields that contain commas.",
    "Add type hints and a docstring.",
    "Write three pytest tests for it.",
]
SYSTEM = "You are a helpful coding assistant."


@dataclass
class Sample:
    pieces: int
    ttft_s: float
    decode_s: float

    @property
    def rate(self) -> float:
        return (self.pieces - 1) / self.decode_s if self.decode_s > 0 else 0.0


def _timed(stream: Any) -> Sample:
    started = time.perf_counter()
    first = last = None
    pieces = 0
    for text in stream:
        if not text:
            continue
        now = time.perf_counter()
        first = first or now
        last = now
        pieces += 1
    first = first or time.perf_counter()
    return Sample(pieces, first - started, (last or first) - first)


def _raw_stream(llm: Any, messages: list[dict[str, str]], gen: GenerationSettings) -> Any:
    for chunk in llm.create_chat_completion(messages=messages, stream=True, **gen.llama_kwargs()):
        yield chunk["choices"][0]["delta"].get("content") or ""


def _aggregate(samples: list[Sample]) -> dict[str, float]:
    pieces = sum(s.pieces - 1 for s in samples)
    seconds = sum(s.decode_s for s in samples)
    return {
        "decode_tps": pieces / seconds if seconds else 0.0,
        "decode_tps_median": statistics.median(s.rate for s in samples),
        "ttft_s_median": statistics.median(s.ttft_s for s in samples),
        "tokens": pieces + len(samples),
    }


def _chat_turn_fractions(engine: Engine, raw: Any, gen: GenerationSettings) -> list[dict[str, Any]]:
    import llama_cpp

    messages = [{"role": "system", "content": SYSTEM}]
    raw_messages = [{"role": "system", "content": SYSTEM}]
    turns = []
    for number, request in enumerate(CHAT_TURNS, start=1):
        messages.append({"role": "user", "content": request})
        reply, stats = engine.chat(messages, gen)
        messages.append({"role": "assistant", "content": reply})

        raw_messages.append({"role": "user", "content": request})
        llama_cpp.llama_perf_context_reset(raw.ctx)
        raw_reply = raw.create_chat_completion(messages=raw_messages, **gen.llama_kwargs())
        raw_sent = raw_reply["usage"]["prompt_tokens"]
        raw_eval = llama_cpp.llama_perf_context(raw.ctx).n_p_eval
        raw_messages.append({"role": "assistant", "content": raw_reply["choices"][0]["message"]["content"]})
        turns.append(
            {
                "turn": number,
                "prompt_tokens": stats.prompt_tokens,
                "evaluated": stats.prompt_tokens_evaluated,
                "eval_fraction": stats.prompt_tokens_evaluated / stats.prompt_tokens,
                "raw_prompt_tokens": raw_sent,
                "raw_evaluated": raw_eval,
                "raw_eval_fraction": raw_eval / raw_sent if raw_sent else 0.0,
            }
        )
    return turns


def run(
    model: str | None,
    rounds: int,
    max_tokens: int,
    n_ctx: int,
    parts: tuple[str, ...] = PARTS,
    batch_n: int = BATCH_N,
) -> dict[str, Any]:
    from llama_cpp import Llama

    from models.llama_cpu_guard import guard_llama

    guard_llama()  # the plain Llama loads with the engine's parameters
    path = resolve_model(model)
    settings = EngineSettings(n_ctx=n_ctx, seed=1234)
    gen = GenerationSettings(temperature=0.0, max_tokens=max_tokens, seed=1234)

    engine = Engine(path, settings)
    report = engine.load()
    started = time.perf_counter()
    raw = None
    if {"decode", "turns"} & set(parts):  # the plain Llama is only compared with there
        raw = Llama(
            model_path=str(path),
            n_ctx=n_ctx,
            n_batch=settings.n_batch,
            n_ubatch=settings.n_batch,
            n_gpu_layers=report.n_gpu_layers,
            seed=settings.seed,
            verbose=False,
        )
    raw_load_s = time.perf_counter() - started

    ours: list[Sample] = []
    theirs: list[Sample] = []
    for round_index in range(rounds if "decode" in parts else 0):
        for index, prompt in enumerate(PROMPTS):
            messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}]
            order = ("engine", "raw") if (round_index + index) % 2 == 0 else ("raw", "engine")
            for who in order:
                if who == "engine":
                    ours.append(_timed(engine.stream_chat(messages, gen)))
                else:
                    theirs.append(_timed(_raw_stream(raw, messages, gen)))

    result: dict[str, Any] = {"bench": "engine", "model": path.name, "n_gpu_layers": report.n_gpu_layers}
    result["engine_load_s"] = round(report.load_s, 3)
    result["raw_load_s"] = round(raw_load_s, 3)
    if "decode" in parts:
        result |= _decode_figures(ours, theirs)
    if "turns" in parts:
        result |= _turn_figures(_chat_turn_fractions(engine, raw, gen))
    if raw is not None:
        raw.close()
    if "batch" in parts:
        result |= batch_speedup(engine, rounds, max_tokens, batch_n)
    tool_gen = GenerationSettings(temperature=0.0, max_tokens=1200, seed=1234, repeat_penalty=1.0)
    speed_rounds = rounds
    if "constrained" in parts:
        result |= engine_speedups.constrained(engine, tool_gen, speed_rounds)
    if "rewrite" in parts or "rewrite-llama-cpp" in parts:
        result |= engine_speedups.rewrite(engine, tool_gen, speed_rounds, "rewrite-llama-cpp" in parts)
    engine.close()
    return result


def batch_speedup(engine: Engine, rounds: int, max_tokens: int, n: int = BATCH_N) -> dict[str, Any]:
    """Decode tokens/s of `n` replies decoded together over that of one reply (module doc)."""
    gen = GenerationSettings(temperature=0.7, max_tokens=max_tokens, seed=1234)
    one: list[CallStats] = []
    many: list[CallStats] = []
    runs: list[Any] = []  # models.batch_decode.BatchRun of each batched call
    for round_index in range(rounds):
        for index, prompt in enumerate(PROMPTS[:BATCH_PROMPTS]):
            messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}]
            seed = gen.seed + 100 * (round_index * len(PROMPTS) + index)
            order = ("one", "many") if (round_index + index) % 2 == 0 else ("many", "one")
            for who in order:
                if who == "one":
                    one.append(engine.chat(messages, replace(gen, seed=seed))[1])
                else:
                    engine.complete_many(messages, spread_settings(replace(gen, seed=seed), n))
                    assert engine.last_stats is not None
                    many.append(engine.last_stats)
                    runs.append(engine.last_batch)
    one_tps, many_tps = _decode_rate(one, 1), _decode_rate(many, n)
    steps = sum(run.decode_steps for run in runs) or 1
    return {
        "batch_runs_each": len(one),
        "batch1_tps": round(one_tps, 2),
        "batch_n": n,
        f"batch{n}_tps": round(many_tps, 2),
        f"batch{n}_speedup": round(many_tps / one_tps, 3) if one_tps else 0.0,
        f"batch{n}_tokens": sum(stats.completion_tokens for stats in many),
        "batch1_tokens": sum(stats.completion_tokens for stats in one),
        "batch_step_decode_ms": round(1000 * sum(run.decode_s for run in runs) / steps, 3),
        "batch_step_sample_ms": round(1000 * sum(run.sample_s for run in runs) / steps, 3),
        "batch_open_ms": round(1000 * sum(run.open_s for run in runs) / max(len(runs), 1), 2),
        "batch_backend_sampling": any(run.backend_sampling for run in runs),
        "batch_threads": sorted({run.threads for run in runs}),
    }


def _decode_rate(calls: list[CallStats], replies_per_call: int) -> float:
    """Tokens after each reply's first, over the seconds from the first token to the last."""
    tokens = sum(max(stats.completion_tokens - replies_per_call, 0) for stats in calls)
    seconds = sum(stats.total_s - stats.time_to_first_token_s for stats in calls)
    return tokens / seconds if seconds > 0 else 0.0


def _decode_figures(ours: list[Sample], theirs: list[Sample]) -> dict[str, Any]:
    engine_agg, raw_agg = _aggregate(ours), _aggregate(theirs)
    return {
        "runs_each": len(ours),
        "engine_decode_tps": round(engine_agg["decode_tps"], 2),
        "raw_decode_tps": round(raw_agg["decode_tps"], 2),
        "ratio": round(engine_agg["decode_tps"] / raw_agg["decode_tps"], 4),
        "ratio_of_medians": round(engine_agg["decode_tps_median"] / raw_agg["decode_tps_median"], 4),
        "engine_ttft_s": round(engine_agg["ttft_s_median"], 4),
        "raw_ttft_s": round(raw_agg["ttft_s_median"], 4),
    }


def _turn_figures(turns: list[dict[str, Any]]) -> dict[str, Any]:
    figures: dict[str, Any] = {"turns": turns}
    for number in (2, 3):
        turn = turns[number - 1]
        figures |= {
            f"turn{number}_prompt_tokens": turn["prompt_tokens"],
            f"turn{number}_evaluated": turn["evaluated"],
            f"turn{number}_eval_fraction": round(turn["eval_fraction"], 4),
            f"raw_turn{number}_eval_fraction": round(turn["raw_eval_fraction"], 4),
        }
    return figures


def print_report(result: dict[str, Any]) -> None:
    print(f"model {result['model']}  n_gpu_layers {result['n_gpu_layers']}")
    print(f"load time         engine {result['engine_load_s']:8.3f}s  raw {result['raw_load_s']:8.3f}s")
    if "ratio" in result:
        print(
            f"decode tokens/s   engine {result['engine_decode_tps']:8.2f}"
            f"   raw {result['raw_decode_tps']:8.2f}"
            f"   ratio {result['ratio']:.3f} (of medians {result['ratio_of_medians']:.3f}),"
            f" {result['runs_each']} runs each"
        )
        print(f"time to 1st token engine {result['engine_ttft_s']:8.3f}s  raw {result['raw_ttft_s']:8.3f}s")
    for turn in result.get("turns", []):
        print(
            f"chat turn {turn['turn']}: evaluated {turn['evaluated']:4d} of {turn['prompt_tokens']:4d}"
            f" prompt tokens ({turn['eval_fraction']:.3f}); plain Llama {turn['raw_evaluated']} of "
            f"{turn['raw_prompt_tokens']} ({turn['raw_eval_fraction']:.3f})"
        )
    if "batch_n" in result:
        n = result["batch_n"]
        print(
            f"decode tokens/s   {n} together {result[f'batch{n}_tps']:8.2f} (all replies)"
            f"   one {result['batch1_tps']:8.2f}   batch{n}_speedup {result[f'batch{n}_speedup']:.3f},"
            f" {result['batch_runs_each']} runs each"
        )
        print(
            f"a batch step: llama_decode {result['batch_step_decode_ms']:.2f} ms, sampling"
            f" {result['batch_step_sample_ms']:.2f} ms"
            f" ({'on the GPU' if result['batch_backend_sampling'] else 'on the CPU'});"
            f" the batch context {result['batch_open_ms']:.1f} ms a call;"
            f" steps on {'/'.join(map(str, result['batch_threads']))} threads"
        )
    if "constrained_ratio" in result:
        print(
            f"write_file call tokens/s: free {result['free_tps']:.2f},"
            f" constrained {result['constrained_tps']:.2f}"
            f" (ratio {result['constrained_ratio']:.3f}), grammar-first {result['grammar_first_tps']:.2f}"
            f" (ratio {result['grammar_first_ratio']:.3f})"
        )
    if "rewrite_speedup" in result:
        line = (
            f"rewrite of 150 lines ({result['rewrite_tokens']} tokens): {result['rewrite_s_off']:.2f}s plain,"
            f" {result['rewrite_s_ours']:.2f}s prompt lookup (x{result['rewrite_speedup']:.2f}, identical"
            f" {result['rewrite_identical']})"
        )
        if "rewrite_s_llama_cpp" in result:
            line += (
                f", llama-cpp-python's {result['rewrite_s_llama_cpp']:.2f}s"
                f" (x{result['rewrite_speedup_llama_cpp']:.2f},"
                f" identical {result['rewrite_identical_llama_cpp']})"
            )
        print(line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--n-ctx", type=int, default=4096)
    parser.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated, of {', '.join(PARTS)}")
    parser.add_argument("--batch-n", type=int, default=BATCH_N, help="batch: replies decoded together")
    parser.add_argument("--gpu-sampling", action="store_true", help="batch: sampling chains in the GPU graph")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args(argv)
    if args.gpu_sampling:
        from models import batch_decode

        batch_decode.BACKEND_SAMPLING = True
    parts = tuple(part.strip() for part in args.parts.split(",") if part.strip())
    if unknown := set(parts) - set(PARTS):
        parser.error(f"unknown parts: {', '.join(sorted(unknown))}")
    if args.batch_n < 2:
        parser.error("--batch-n: at least 2 replies decoded together")
    result = run(args.model, args.rounds, args.max_tokens, args.n_ctx, parts, args.batch_n)
    print_report(result)
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
