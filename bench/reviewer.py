"""How often the crew's reviewer writes right checks: its asserts run against the reference solution.

    python -m bench.reviewer [--model ID] [--only 01,02] [--json]

For each acceptance request (bench/crew_requests/), the workspace is its files/ with reference/
laid over it, the solution a perfect coder would have written. The reviewer's turn runs exactly as
in a crew run (CrewRunner.write_checks: the request and the code's signatures, never its bodies),
and its asserts run in the sandbox against that solution. An assert that fails there is a wrong
check: in a real run it sends a correct answer back to the coder. Where files/ holds a version of
the module (edit requests), the same asserts also run against it: a set that passes the reference
and fails the original is one that tells the fix from the bug.

Reported: asserts right / written, requests whose every assert is right, requests with no usable
check, and, for edits, sets that tell the fix from the bug. Tune on requests 01-20 only.
"""

from __future__ import annotations

import argparse
import datetime
import json
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import models.llama_libs  # noqa: F401, I001  (llama.cpp's libraries before numpy's)
import offline  # noqa: F401, I001
from agents.crew_runner import CrewRunner, CrewSettings
from agents.crew_tools import ToolContext, run_written_checks
from agents.events import EventBus
from agents.written_checks import modules_of
from bench.crew import AcceptanceRequest, load_requests, only
from models.engine import Engine, EngineSettings
from models.model_path import resolve_model
from tools.sandbox import RunLimits
from tools.workspace_files import WorkspaceFiles

N_CTX = 4096


def _python_files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*.py")) if folder.is_dir() else []


def _run_checks(workspace: Path, modules: list[str], checks: str) -> tuple[int, int, list[str]]:
    context = ToolContext(WorkspaceFiles(workspace), EventBus(), RunLimits(wall_s=20.0))
    _, outcome = run_written_checks(context, modules, checks)
    return outcome.passed, outcome.total, outcome.failures


def review_one(engine: Engine, request: AcceptanceRequest) -> dict[str, Any]:
    reference = request.folder / "reference"
    original = request.folder / "files"
    modules = modules_of(_python_files(reference))
    with tempfile.TemporaryDirectory(prefix="bench-reviewer-") as folder:
        workspace = Path(folder)
        if original.is_dir():
            shutil.copytree(original, workspace, dirs_exist_ok=True)
        shutil.copytree(reference, workspace, dirs_exist_ok=True)
        runner = CrewRunner(engine, workspace, EventBus(), CrewSettings(rounds=1))
        began = time.perf_counter()
        checks = runner.write_checks(request.text, modules, 1)
        seconds = time.perf_counter() - began
        right, total, failures = _run_checks(workspace, modules, checks) if checks else (0, 0, [])
    telling = None
    shared = [m for m in modules if (original / (m.replace(".", "/") + ".py")).is_file()]
    if checks and shared and right == total:
        with tempfile.TemporaryDirectory(prefix="bench-reviewer-orig-") as folder:
            shutil.copytree(original, folder, dirs_exist_ok=True)
            on_original, _, _ = _run_checks(Path(folder), shared, checks)
        telling = on_original < total
    return {
        "request": request.name,
        "kind": request.kind,
        "checks": checks,
        "right": right,
        "total": total,
        "failures": failures,
        "tells_fix_from_bug": telling,
        "seconds": round(seconds, 1),
    }


def summarize(records: list[dict[str, Any]], model: str) -> dict[str, Any]:
    written = sum(r["total"] for r in records)
    right = sum(r["right"] for r in records)
    edits = [r for r in records if r["tells_fix_from_bug"] is not None]
    return {
        "bench": "reviewer-checks",
        "date": datetime.date.today().isoformat(),
        "model": model,
        "requests": len(records),
        "asserts_written": written,
        "asserts_right": right,
        "assert_precision": round(right / written, 4) if written else 0.0,
        "requests_all_right": sum(1 for r in records if r["total"] and r["right"] == r["total"]),
        "requests_without_checks": sum(1 for r in records if not r["total"]),
        "edit_sets_telling_fix_from_bug": sum(1 for r in edits if r["tells_fix_from_bug"]),
        "edit_sets_all_right": len(edits),
        "seconds_per_request": round(sum(r["seconds"] for r in records) / max(len(records), 1), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.reviewer", description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None, help="catalog id or .gguf path (default: the IDE's default)")
    parser.add_argument("--only", default="", help="request names or prefixes, e.g. 01,02_edit")
    parser.add_argument("--json", action="store_true", help="end with the summary as one JSON line")
    parser.add_argument("--out", type=Path, default=None, help="write every record and the summary here")
    args = parser.parse_args(argv)
    requests = only(load_requests(), args.only)
    engine = Engine(resolve_model(args.model), EngineSettings(n_ctx=N_CTX))
    engine.load()
    records = []
    try:
        for request in requests:
            record = review_one(engine, request)
            records.append(record)
            telling = record["tells_fix_from_bug"]
            print(
                f"{request.name:<28} {record['right']}/{record['total']} right"
                + (f", tells fix from bug: {telling}" if telling is not None else "")
                + "".join(f"\n    wrong: {f}" for f in record["failures"][:4]),
                flush=True,
            )
    finally:
        engine.close()
    result = summarize(records, engine.model_path.name)
    if args.out:
        args.out.write_text(json.dumps({"summary": result, "records": records}, indent=1))
    print(
        f"asserts right: {result['asserts_right']}/{result['asserts_written']} "
        f"({result['assert_precision']:.0%}); every assert right in {result['requests_all_right']} of "
        f"{result['requests']} requests; no usable check in {result['requests_without_checks']}"
    )
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
