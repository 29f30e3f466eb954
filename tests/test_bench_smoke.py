"""Every benchmark runs as docs/benchmarks.md prints it and ends with its one JSON line.

Each bench module runs here in its smallest configuration, as a user would start it
(`python -m bench.NAME ... --json` in a fresh process), on the bundled SmolLM2-135M and one
llama.cpp thread: about 2¼ minutes of CPU in all (4½ to 5½ minutes of wall time on 2 cores under
a load of 4 to 9). Only the shape is checked: the process exits 0, its last line is one JSON
object, and that object carries the figures the bench is for. What the figures are is the
benchmark's business, not this test's.

Covered elsewhere, not repeated here: bench.humaneval (tests/test_humaneval_bench.py runs its CLI
on one problem and reads its JSON line) and bench.gpu_offload (tests/test_gpu_offload_bench.py).
bench.crew's and bench.reviewer's logic is tested on a scripted engine in tests/test_crew_bench.py;
here they run end to end on a real model, one request each.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MODEL = ("--model", "smollm2-135m")


def run_bench(module: str, *args: str, timeout: float = 900) -> tuple[dict[str, Any], str]:
    """(the last line as JSON, all stdout) of `python -m bench.MODULE ARGS --json`. The deadline is
    for a hang: beside a benchmark, one 135M crew request both ways took over 240 s (a fresh clone's
    suite, 2026-11-28)."""
    # One llama.cpp thread: on 2 busy cores two threads spin waiting on each other (a 4-token batch
    # took 2-4 s on 2 threads against 0.1 s on 1), and this test checks shape, not speed.
    env = {"LOCALCREW_THREADS": "1", **os.environ, "PYTHONUNBUFFERED": "1"}
    done = subprocess.run(
        [sys.executable, "-m", f"bench.{module}", *args, "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    assert done.returncode == 0, (
        f"bench.{module} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    assert lines, f"bench.{module} printed nothing:\n{done.stderr[-3000:]}"
    last = json.loads(lines[-1])
    assert isinstance(last, dict), lines[-1]
    return last, done.stdout


def test_engine_decodes_on_both_sides(tmp_path: Path) -> None:
    result, out = run_bench("engine", *MODEL, "--parts", "decode", "--rounds", "1", "--max-tokens", "8")
    assert result["engine_decode_tps"] > 0 and result["raw_decode_tps"] > 0
    assert result["ratio"] > 0 and "decode tokens/s" in out


def test_crew_runs_one_request_both_ways(tmp_path: Path) -> None:
    result, out = run_bench("crew", *MODEL, "--limit", "1", "--rounds", "1", "--out", str(tmp_path))
    assert result["requests"] == 1 and result["rounds"] == 1
    assert {"crew_passed", "single_passed", "false_approvals", "crew_seconds_per_request"} <= set(result)
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["summary"] == result and len(saved["records"]) == 1
    assert "pass rate: crew" in out


def test_reviewer_grades_one_requests_asserts(tmp_path: Path) -> None:
    out_file = tmp_path / "reviewer.json"
    result, _ = run_bench("reviewer", *MODEL, "--only", "01", "--out", str(out_file))
    assert result["bench"] == "reviewer-checks" and result["requests"] == 1
    assert result["asserts_right"] <= result["asserts_written"]
    assert json.loads(out_file.read_text())["summary"] == result


def test_retrieval_measures_latency_on_a_tiny_tree(tmp_path: Path) -> None:
    args = (
        "--only",
        "latency",
        "--chunks",
        "60",
        "--files",
        "3",
        "--queries",
        "12",
        "--workdir",
        str(tmp_path),
    )
    result, _ = run_bench("retrieval", *args)
    assert result["chunks"] == 60 and result["latency_queries"] == 12
    assert 0 < result["p50_ms"] <= result["p95_ms"]
    assert result["query_encoder"] in ("onnx", "torch")


def test_startup_reaches_the_ide_with_the_printed_key() -> None:
    # Since the per-launch key the IDE answers 403 without it: the bench must read it from the
    # app's output, or it never sees the IDE ("not ready within 120 s").
    result, out = run_bench("startup", *MODEL, "--runs", "1", "--no-warm-up", timeout=600)
    assert 0 < result["page_s"] <= result["ide_s"]
    assert result["ready_s"] > 0 and result["runs"] == 1
    assert len(result["load_average_before"]) == 3 and "run 1: page" in out


def test_backends_compares_one_chat_call(tmp_path: Path) -> None:
    args = (
        "--limit",
        "0",
        "--chat-calls",
        "1",
        "--concurrent",
        "0",
        "--threads",
        "1",
        "--out",
        str(tmp_path),
    )
    result, _ = run_bench("backends", *MODEL, *args)
    chat = result["chat"]
    assert chat["calls"] == 1 and chat["local_median_s"] > 0 and chat["server_median_s"] > 0
    assert (tmp_path / "results.json").exists()
