"""How often the crew's reviewer writes right checks: its asserts run against the reference solution.

    python -m bench.reviewer [--model ID] [--only 01,02] [--json]

For each acceptance request (bench/crew_requests/), the workspace is its files/ with reference/
laid over it, the solution a perfect coder would have written. The reviewer's turn runs exactly as
in a crew run (CrewRunner.write_checks: the request and the code's signatures, never its bodies),
and its asserts run in the sandbox against that solution. An assert that fails there is a wrong
check: in a real run it sends a correct answer back to the coder. Where files/ holds a version of
the module (edit requests), the same asserts also run against it: a set that passes the reference
and fails the original is one that tells the fix from the bug.

The crew's second opinion (agents/rules/settle/check_disputes.py) then runs on the failures as in a run: on
the wrong asserts it should drop them; on right asserts failing against wrong code (the original
of an edit, and up to 3 mutants of the reference: an operator flipped or a number changed) it
must keep them, or a run would approve a bug.

Reported: asserts right / written, requests whose every assert is right, requests with no usable
check, for edits, sets that tell the fix from the bug, and the second opinion's drops on each
side. Tune on requests 01-20 only.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import json
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import models.llama_libs  # noqa: F401, I001  (llama.cpp's libraries before numpy's)
import offline  # noqa: F401, I001
from agents.events import EventBus
from agents.request import RequestFacts
from agents.rules.checks.written_checks import modules_of
from agents.run.crew_tools import ToolContext, run_written_checks
from agents.run.runner import CrewRunner, CrewSettings
from bench.crew import AcceptanceRequest, load_requests, only
from models.chat_engine import EngineSettings
from models.engine import Engine
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


_FLIPS: dict[type, type] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.Lt: ast.LtE,
    ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
}  # fmt: skip


def _mutation_points(tree: ast.AST) -> list[ast.AST]:
    return [
        n
        for n in ast.walk(tree)
        if (isinstance(n, ast.BinOp) and type(n.op) in _FLIPS)
        or (isinstance(n, ast.Compare) and type(n.ops[0]) in _FLIPS)
        or (isinstance(n, ast.Constant) and type(n.value) in (int, float) and n.value not in (0, 1))
    ]


def _mutants(workspace: Path, modules: list[str], limit: int = 3) -> list[Path]:
    """Copies of the workspace, each with one small bug in the reference (an operator flipped, a
    number changed): code a right check fails, so the second opinion's wrong drops show."""
    made = []
    for module in modules:
        rel = module.replace(".", "/") + ".py"
        source = (workspace / rel).read_text()
        count = len(_mutation_points(ast.parse(source)))
        for index in sorted(
            {round(i * (count - 1) / max(limit - 1, 1)) for i in range(limit)} if count else []
        ):
            tree = ast.parse(source)
            node = _mutation_points(tree)[index]
            if isinstance(node, ast.BinOp):
                node.op = _FLIPS[type(node.op)]()
            elif isinstance(node, ast.Compare):
                node.ops[0] = _FLIPS[type(node.ops[0])]()
            else:
                node.value = node.value + 1  # type: ignore[attr-defined]
            copy = Path(tempfile.mkdtemp(prefix="bench-reviewer-mutant-"))
            shutil.copytree(workspace, copy, dirs_exist_ok=True)
            (copy / rel).write_text(ast.unparse(tree) + "\n")
            made.append(copy)
        if len(made) >= limit:
            break
    return made[:limit]


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
        checks = runner.write_checks(RequestFacts.read(request.text), modules, 1)
        seconds = time.perf_counter() - began
        right, total, failures = _run_checks(workspace, modules, checks) if checks else (0, 0, [])
        # Every check failing against the reference is wrong: the second opinion should drop it.
        wrong_dropped = runner.settler.second_opinion(request.text, checks, failures, 1) if failures else []
        telling, right_failing, right_dropped = None, [], []
        shared = [m for m in modules if (original / (m.replace(".", "/") + ".py")).is_file()]
        wrong_checks = {f.split("  ->  ")[0] for f in failures}
        if checks and shared:
            with tempfile.TemporaryDirectory(prefix="bench-reviewer-orig-") as folder:
                shutil.copytree(original, folder, dirs_exist_ok=True)
                on_original, _, original_failures = _run_checks(Path(folder), shared, checks)
            telling = on_original < total if right == total else None
            # Right checks (they pass on the reference) failing on the code before the fix: the
            # second opinion must keep them, or a run would approve the bug.
            right_failing += [f for f in original_failures if f.split("  ->  ")[0] not in wrong_checks]
        if checks:
            for mutant in _mutants(workspace, modules):
                _, _, mutant_failures = _run_checks(mutant, modules, checks)
                right_failing += [f for f in mutant_failures if f.split("  ->  ")[0] not in wrong_checks]
                shutil.rmtree(mutant, ignore_errors=True)
        if right_failing:
            right_dropped = runner.settler.second_opinion(request.text, checks, right_failing, 1)
        opinion_seconds = time.perf_counter() - began - seconds
    return {
        "request": request.name,
        "kind": request.kind,
        "checks": checks,
        "right": right,
        "total": total,
        "failures": failures,
        "tells_fix_from_bug": telling,
        "seconds": round(seconds, 1),
        "wrong_dropped": wrong_dropped,
        "right_failing_on_wrong_code": right_failing,
        "right_dropped": right_dropped,
        "second_opinion_seconds": round(opinion_seconds, 1),
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
        # The second opinion (agents/rules/settle/check_disputes.py) on the failed checks.
        "wrong_asserts_dropped": sum(len(r["wrong_dropped"]) for r in records),
        "right_asserts_failing_on_wrong_code": sum(len(r["right_failing_on_wrong_code"]) for r in records),
        "right_asserts_dropped": sum(len(r["right_dropped"]) for r in records),
        "second_opinion_seconds_per_request": round(
            sum(r["second_opinion_seconds"] for r in records) / max(len(records), 1), 1
        ),
    }


def _listed(label: str, failures: list[str], dropped: list[str], mark: str) -> str:
    return "".join(
        f"\n    {label}{f' ({mark})' if f.split('  ->  ')[0] in dropped else ''}: {f}" for f in failures[:4]
    )


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
                + _listed("wrong", record["failures"], record["wrong_dropped"], "dropped")
                + _listed(
                    "right, fails wrong code",
                    record["right_failing_on_wrong_code"],
                    record["right_dropped"],
                    "DROPPED",
                ),
                flush=True,
            )
    finally:
        engine.close()
    result = summarize(records, engine.model_path.name)
    wrong = result["asserts_written"] - result["asserts_right"]
    if args.out:
        args.out.write_text(json.dumps({"summary": result, "records": records}, indent=1))
    print(
        f"asserts right: {result['asserts_right']}/{result['asserts_written']} "
        f"({result['assert_precision']:.0%}); every assert right in {result['requests_all_right']} of "
        f"{result['requests']} requests; no usable check in {result['requests_without_checks']}\n"
        f"second opinion: dropped {result['wrong_asserts_dropped']} of {wrong} wrong asserts,"
        f" {result['right_asserts_dropped']} of {result['right_asserts_failing_on_wrong_code']} right asserts"
        f" failing on wrong code (the original, mutants of the reference);"
        f" {result['second_opinion_seconds_per_request']} s per request"
    )
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
