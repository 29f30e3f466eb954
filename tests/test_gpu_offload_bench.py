"""bench.gpu_offload end to end where there is no GPU: the plan keeps every layer on the CPU, the
model still loads in a process of its own and decodes, and the report ends in one JSON line; with
--reviewer the pair loads side by side, and each level says which coder launch.sh would fetch."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_without_a_gpu_everything_stays_on_the_cpu(bundled_model: Path) -> None:
    cmd = [sys.executable, "-m", "bench.gpu_offload", "--model", str(bundled_model)]
    cmd += ["--reviewer", str(bundled_model)]
    done = subprocess.run(
        cmd + ["--free-gib", "0", "--n-ctx", "512", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    [level] = report["levels"]
    first = level["runs"][0]
    assert "error" not in first, first
    assert first["planned_layers"] == first["loaded_layers"] == 0
    assert first["predicted_gpu_mib"] == 0
    assert first["decode_tok_s"] > 0 and first["prefill_tok_s"] > 0
    # Two layers more than planned were asked for too; with no GPU they stay on the CPU, and say so.
    second = level["runs"][1]
    assert second["requested_layers"] == 2 and second["loaded_layers"] == 0
    assert any("no GPU" in warning for warning in second["warnings"])
    # The pair planned together, both loaded in one process: on the CPU, nothing predicted on a GPU.
    pair = level["pair"]
    assert "error" not in pair, pair
    assert pair["loaded_layers"] == pair["planned_layers"] == [0, 0]
    assert pair["predicted_gpu_mib"] == pair["measured_gpu_mib"] == 0
    assert any("both models run on the CPU" in line for line in pair["explanation"])
    choice = level["fetch_choice"]
    assert choice["id"] == "qwen2.5-coder-0.5b-q4_k_m" and choice["on_gpu"] is False
