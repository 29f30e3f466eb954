"""Acceptance benchmark: the crew the IDE runs against one coder call, graded by hidden tests.

    python -m bench.crew [--model ID] [--limit N] [--rounds 3] [--without RULE,...] [--list-rules]
        [--json] [--out DIR] [--requests DIR]
    python -m bench.crew --merge DIR [DIR ...] --out DIR   # one summary of runs split across processes

Each request is a folder of bench/crew_requests/ (or of --requests DIR, e.g. bench/library_requests,
with its own --out): request.txt, an optional files/ (the workspace before the run) and
hidden_test.py, a pytest file that no prompt ever shows. reference/ holds a correct solution;
tests/test_crew_bench.py grades every hidden test against it, so a wrong hidden test cannot count
against a model. For each request, each on a fresh copy of its workspace:

- crew: CrewRunner (agents/run/runner.py), the crew of the IDE and `app.py ask`, --rounds rounds;
- single: one coder call, no planner, reviewer or checks: the request, the workspace's files and
  the coder's format rules, greedy, with the crew coder's reply cap. Its file blocks are written as
  the crew's are: only the files the request names, when it names any.

Then the hidden test is copied in and run with pytest in the sandbox. Counted next to the pass
rates: false approvals (the crew approved, the hidden test failed), lost definitions (a function,
class or method of a file that was there before is gone, and the request does not ask to remove
it) and seconds per request. Each request's transcript goes to OUT/<request>.md as it finishes,
every record and the summary so far to OUT/results.json, so a stopped run keeps what it did.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import models.llama_libs  # noqa: F401, I001  (llama.cpp's libraries before numpy's)
import offline  # noqa: F401, I001
from agents.crew_factory import build_crew
from agents.events import (
    AgentFinished,
    AgentStarted,
    CheckRun,
    EventBus,
    Notice,
    ReviewVerdict,
    TokenChunk,
    ToolCallFailed,
    ToolCallFinished,
    ToolCallStarted,
)
from agents.llm.roles import roles_for
from agents.request import RequestFacts, files_named_in
from agents.rules.parse.file_blocks import FORMAT_RULES, file_blocks
from agents.rules.registry import RuleSwitches, registry_json
from agents.rules.write.edit_guard import lost_definitions
from agents.run.runner import CrewSettings
from bench.profile_flag import add_profile_argument, crew_settings, profile_defaults
from bench.results_dir import dated
from bench.rule_flags import add_rule_arguments, rule_switches, with_candidates
from models.chat_engine import CallStats, EngineError, EngineSettings, Message
from models.engine import Engine
from models.model_path import resolve_model
from models.reply_budget import reply_budget_for
from tools.sandbox import RunLimits, run_pytest
from tools.workspace_files import WorkspaceError, WorkspaceFiles

REQUESTS_DIR = Path(__file__).resolve().parent / "crew_requests"
DEFAULT_OUT = dated("crew")
KINDS = ("new", "class", "edit", "multi", "data")
# Under a name no request mentions, so the crew cannot have written a file of that name.
HIDDEN_NAME = "test_hidden_acceptance.py"
HIDDEN_TEST_S = 60.0
N_CTX = 4096  # the IDE's default context
SHOWN_FILE_CHARS = 3000  # one workspace file in the single call's prompt
SHOWN_TOTAL_CHARS = CrewSettings().current_files_chars  # all of them: the crew coder's budget


# The made-up task of the crew's old prompt examples (greet.py, greet('Ann')): the bundled model
# copied it into plans, code and reviews of other requests. A run echoes it when any agent's output
# or tool call uses these words and the request does not. The prompts no longer show them
# (tests/test_crew_bench.py checks that); the share says what is left.
EXAMPLE_WORDS = ("greet", "Ann")


def echoes_examples(request: str, history: list[Any]) -> bool:
    said = [e.output for e in history if isinstance(e, AgentFinished)]
    said += [json.dumps(e.arguments) for e in history if isinstance(e, ToolCallStarted)]
    said += [" ".join(e.fixes) for e in history if isinstance(e, ReviewVerdict)]
    words = [w for w in EXAMPLE_WORDS if not re.search(rf"\b{w}\b", request, re.I)]
    return any(re.search(rf"\b{w}\b", text) for w in words for text in said)


# ---------- the acceptance set ----------


@dataclass(frozen=True)
class RequestFolder:
    """A request's folder: the project before (files/), its hidden test and its reference."""

    name: str  # the folder's name: NN_kind_what
    kind: str
    folder: Path

    @property
    def files(self) -> Path:
        return self.folder / "files"

    @property
    def hidden_test(self) -> Path:
        return self.folder / "hidden_test.py"

    @property
    def reference(self) -> Path:
        return self.folder / "reference"


@dataclass(frozen=True)
class AcceptanceRequest(RequestFolder):
    text: str


def load_requests(root: Path = REQUESTS_DIR) -> list[AcceptanceRequest]:
    """The set in folder order; the order mixes the kinds, so --limit N still samples each."""
    found = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and (p / "request.txt").is_file()):
        kind = folder.name.split("_")[1]
        found.append(
            AcceptanceRequest(folder.name, kind, folder, (folder / "request.txt").read_text().strip())
        )
    return found


def only(requests: list[AcceptanceRequest], names: str) -> list[AcceptanceRequest]:
    """The requests whose names start with one of the comma-separated prefixes ('' keeps all)."""
    prefixes = tuple(p.strip() for p in names.split(",") if p.strip())
    return [r for r in requests if r.name.startswith(prefixes)] if prefixes else requests


def prepare_workspace(request: AcceptanceRequest, dest: Path) -> dict[str, str]:
    """Copy the request's files into `dest`; returns what each text file held before the run."""
    dest.mkdir(parents=True, exist_ok=True)
    if request.files.is_dir():
        shutil.copytree(request.files, dest, dirs_exist_ok=True)
    return {
        p.relative_to(dest).as_posix(): p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(dest.rglob("*"))
        if p.is_file()
    }


def run_hidden_test(workspace: Path, hidden_test: Path, *, sandboxed: bool = True) -> tuple[bool, str]:
    """Copy the hidden test in and run it: (passed, pytest's output). Model-written code runs in
    the sandbox; `sandboxed=False` is for the references, which are ours (a plain pytest without
    plugin autoload starts in a fraction of the time)."""
    shutil.copyfile(hidden_test, workspace / HIDDEN_NAME)
    if sandboxed:
        result = run_pytest(workspace, HIDDEN_NAME, RunLimits(wall_s=HIDDEN_TEST_S))
        return result.exit_code == 0, (result.stdout_tail + result.stderr_tail).strip()
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", os.devnull]
    argv += ["--rootdir=.", "--confcutdir=.", HIDDEN_NAME]
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    try:
        done = subprocess.run(
            argv, cwd=workspace, capture_output=True, text=True, timeout=HIDDEN_TEST_S, env=env
        )
    except subprocess.TimeoutExpired:
        return False, f"timed out after {HIDDEN_TEST_S:.0f} s"
    return done.returncode == 0, (done.stdout + done.stderr).strip()


def lost_in(before: dict[str, str], workspace: Path, request: str) -> dict[str, list[str]]:
    """Definitions each pre-existing Python file lost that the request did not ask to remove."""
    lost, facts = {}, RequestFacts.read(request)
    for rel, old in before.items():
        if not rel.endswith(".py"):
            continue
        path = workspace / rel
        new = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
        names = lost_definitions(old, new, facts)
        if names:
            lost[rel] = names
    return lost


# ---------- one request, two ways ----------


@dataclass
class Outcome:
    passed: bool
    seconds: float
    test_output: str
    files: dict[str, str]  # path -> content, as written
    lost: dict[str, list[str]]
    approved: bool = False
    rounds: int = 0
    message: str = ""
    echoes_examples: bool = False
    steps: list[dict[str, Any]] = field(default_factory=list)  # what the agents said and did, in order

    @property
    def false_approval(self) -> bool:
        return self.approved and not self.passed


def _written(workspace: Path, paths: list[str]) -> dict[str, str]:
    out = {}
    for rel in paths:
        path = workspace / rel
        out[rel] = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else "(deleted)"
    return out


def crew_steps(history: list[Any]) -> list[dict[str, Any]]:
    """Each agent's whole reply (its streamed pieces; the finished event keeps only a preview),
    the writes, checks, verdicts and notices, in order."""
    steps: list[dict[str, Any]] = []
    pieces: list[str] = []
    for event in history:
        if isinstance(event, AgentStarted):
            pieces = []
        elif isinstance(event, TokenChunk):
            pieces.append(event.text)
        elif isinstance(event, AgentFinished):
            steps.append(
                {
                    "step": "agent",
                    "agent": event.agent,
                    "round": event.round,
                    "seconds": round(event.duration_s, 1),
                    "output": "".join(pieces) or event.output,
                }
            )
        elif isinstance(event, CheckRun):
            tail = (event.stdout_tail + event.stderr_tail).strip()
            steps.append({"step": "check", "command": event.command, "passed": event.passed, "tail": tail})
        elif isinstance(event, ReviewVerdict):
            steps.append(
                {"step": "verdict", "round": event.round, "approved": event.approved, "fixes": event.fixes}
            )
        elif isinstance(event, Notice):
            steps.append({"step": "note", "who": event.level, "message": event.message})
        elif isinstance(event, ToolCallFinished | ToolCallFailed):
            what = f"{event.name} {event.arguments.get('path', '')}".strip()
            said = event.result if isinstance(event, ToolCallFinished) else f"Error: {event.error}"
            steps.append({"step": "note", "who": event.agent, "message": f"{what}: {said}"})
    return steps


def run_crew(
    engine: Engine,
    request: AcceptanceRequest,
    rounds: int,
    *,
    rules: RuleSwitches | None = None,
    crew: CrewSettings | None = None,
    reviewer: Engine | None = None,
) -> Outcome:
    """`reviewer`: a second model for the reviewer's turns (None: the coder's model reviews)."""
    with tempfile.TemporaryDirectory(prefix="bench-crew-") as folder:
        workspace = Path(folder)
        before = prepare_workspace(request, workspace)
        bus = EventBus()
        began = time.perf_counter()
        settings = replace(crew or CrewSettings(), rounds=rounds, rules=rules or RuleSwitches())
        summary = build_crew(engine, workspace, bus, settings, reviewer_engine=reviewer).run(request.text)
        seconds = time.perf_counter() - began
        files = _written(workspace, summary.files_changed)
        lost = lost_in(before, workspace, request.text)
        passed, output = run_hidden_test(workspace, request.hidden_test)
    history = bus.history
    return Outcome(
        passed=passed,
        seconds=seconds,
        test_output=output,
        files=files,
        lost=lost,
        approved=summary.approved,
        rounds=summary.rounds_used,
        message=summary.message,
        echoes_examples=echoes_examples(request.text, history),
        steps=crew_steps(history),
    )


def single_messages(engine: Engine, request: str, before: dict[str, str]) -> list[Message]:
    """The baseline's one prompt: the coder's role, the workspace's files whole, the request and
    the format rules the crew's coder gets."""
    coder = roles_for(reply_budget_for(engine.info, engine.settings.n_ctx)).coder
    shown, used = [], 0
    for rel, text in before.items():
        if len(text) > SHOWN_FILE_CHARS or used + len(text) > SHOWN_TOTAL_CHARS:
            shown.append(f"{rel} (too long to show)")
            continue
        # Data files in a text block: a reply that copies one back is not taken for a file to write.
        language = "python" if rel.endswith(".py") else "text"
        shown.append(f"{rel}\n```{language}\n{text.rstrip(chr(10))}\n```")
        used += len(text)
    files = f"The files in the project:\n{chr(10).join(shown)}\n\n" if shown else ""
    return [
        {"role": "system", "content": f"You are a coder. {coder.backstory} {coder.goal}"},
        {"role": "user", "content": f"{files}Request: {request}\n{FORMAT_RULES}"},
    ]


def run_single(engine: Engine, request: AcceptanceRequest) -> Outcome:
    gen = roles_for(reply_budget_for(engine.info, engine.settings.n_ctx)).coder.generation
    with tempfile.TemporaryDirectory(prefix="bench-single-") as folder:
        workspace = Path(folder)
        before = prepare_workspace(request, workspace)
        began = time.perf_counter()
        written, problems = [], []
        try:
            reply, stats = engine.chat(single_messages(engine, request.text, before), gen)
        except EngineError as exc:  # e.g. a prompt too long for the context: a failed request
            reply, stats = "", CallStats()
            problems.append(f"the call failed: {exc}")
        files = WorkspaceFiles(workspace)
        for block in file_blocks(reply, files_named_in(request.text), shown=before):
            try:
                files.write_text(block.path, block.content)
                written.append(block.path)
            except (WorkspaceError, OSError) as exc:
                problems.append(f"{block.path}: {exc}")
        seconds = time.perf_counter() - began
        lost = lost_in(before, workspace, request.text)
        passed, output = run_hidden_test(workspace, request.hidden_test)
        content = _written(workspace, written)
    steps = [
        {"step": "agent", "agent": "single", "round": 1, "seconds": round(stats.total_s, 1), "output": reply}
    ]
    steps += [{"step": "note", "who": "error", "message": p} for p in problems]
    return Outcome(
        passed=passed,
        seconds=seconds,
        test_output=output,
        files=content,
        lost=lost,
        message=f"finish reason {stats.finish_reason}, {stats.completion_tokens} tokens",
        steps=steps,
    )


# ---------- reports ----------


def _fence(text: str, language: str = "text") -> str:
    # Replies carry ``` blocks of their own: a longer fence keeps them inside.
    return f"````{language}\n{text.rstrip()}\n````"


def _outcome_markdown(title: str, outcome: Outcome) -> list[str]:
    verdict = "PASSED" if outcome.passed else "FAILED"
    lines = [f"## {title}: hidden test {verdict} ({outcome.seconds:.1f} s)", ""]
    if outcome.message:
        lines += [outcome.message, ""]
    for step in outcome.steps:
        if step["step"] == "agent":
            lines += [
                f"### round {step['round']}, {step['agent']} ({step['seconds']} s)",
                "",
                _fence(step["output"]),
                "",
            ]
        elif step["step"] == "check":
            lines += [f"### check `{step['command']}`: {'passed' if step['passed'] else 'failed'}", ""]
            lines += [_fence(step["tail"]), ""] if step["tail"] else []
        elif step["step"] == "verdict":
            fixes = "; ".join(step["fixes"]) or "no fixes named"
            lines += [f"### verdict: {'approved' if step['approved'] else 'not approved'} ({fixes})", ""]
        else:
            lines += [f"- {step['who']}: {step['message']}", ""]
    lines += [f"### files written: {', '.join(outcome.files) or 'none'}", ""]
    for rel, content in outcome.files.items():
        lines += [f"`{rel}`", "", _fence(content, "python" if rel.endswith(".py") else "text"), ""]
    if outcome.lost:
        lost = "; ".join(f"{rel}: {', '.join(names)}" for rel, names in outcome.lost.items())
        lines += [f"**Lost definitions**: {lost}", ""]
    lines += ["### hidden test", "", _fence(outcome.test_output[-3000:]), ""]
    return lines


def write_transcript(out: Path, request: AcceptanceRequest, crew: Outcome, single: Outcome) -> None:
    approval = "approved" if crew.approved else "not approved"
    lines = [f"# {request.name} ({request.kind})", "", f"Request: {request.text}", ""]
    if request.files.is_dir():
        lines += [
            f"Workspace before the run: {', '.join(sorted(p.name for p in request.files.iterdir()))}",
            "",
        ]
    lines += [f"Crew: {approval}, {crew.rounds} round(s).", ""]
    lines += _outcome_markdown("Crew", crew) + _outcome_markdown("Single call", single)
    (out / f"{request.name}.md").write_text("\n".join(lines), encoding="utf-8")


def record(request: AcceptanceRequest, crew: Outcome, single: Outcome) -> dict[str, Any]:
    def brief(o: Outcome) -> dict[str, Any]:
        return {"passed": o.passed, "seconds": round(o.seconds, 1), "lost": o.lost, "files": sorted(o.files)}

    return {
        "request": request.name,
        "kind": request.kind,
        "crew": brief(crew)
        | {"approved": crew.approved, "rounds": crew.rounds, "echoes": crew.echoes_examples},
        "single": brief(single),
    }


def cost_figures(records: list[dict[str, Any]], way: str) -> dict[str, Any]:
    """For one way ("crew" or "single"): passes, the median seconds a request, and the seconds spent
    per solved request (all seconds over the passes; None when none passed). The last is the
    figure that decides between models: a bigger one can cost more a request and less a solution."""
    import statistics

    seconds = [r[way]["seconds"] for r in records]
    passed = sum(r[way]["passed"] for r in records)
    return {
        f"{way}_median_seconds": round(statistics.median(seconds), 1) if seconds else 0.0,
        f"{way}_seconds_per_solved": round(sum(seconds) / passed, 1) if passed else None,
    }


def cost_line(result: dict[str, Any]) -> str:
    """Per model, the crew and the one call: passes, median seconds a request, seconds per solved."""
    n = result["requests"]

    def way(key: str, name: str) -> str:
        solved = result.get(f"{key}_seconds_per_solved")
        per_solved = "none solved" if solved is None else f"{solved:.0f} s per solved request"
        return (
            f"{name} {result[f'{key}_passed']}/{n} passed, median "
            f"{result.get(f'{key}_median_seconds', 0.0):.0f} s a request, {per_solved}"
        )

    return f"cost on {result['model']}: {way('crew', 'crew')}; {way('single', 'one call')}"


def summarize(
    records: list[dict[str, Any]], model: str, rounds: int, *, rules: RuleSwitches | None = None
) -> dict[str, Any]:
    n = len(records)

    def share(count: int) -> float:
        return round(count / n, 4) if n else 0.0

    crew_passed = sum(r["crew"]["passed"] for r in records)
    single_passed = sum(r["single"]["passed"] for r in records)
    return {
        "bench": "crew-acceptance",
        "date": datetime.date.today().isoformat(),
        "model": model,
        "rounds": rounds,
        "rules": (rules or RuleSwitches()).describe(),
        "requests": n,
        "crew_passed": crew_passed,
        "single_passed": single_passed,
        "crew_pass_rate": share(crew_passed),
        "single_pass_rate": share(single_passed),
        "crew_approved": sum(r["crew"]["approved"] for r in records),
        "false_approvals": sum(r["crew"]["approved"] and not r["crew"]["passed"] for r in records),
        "false_approval_rate": share(sum(r["crew"]["approved"] and not r["crew"]["passed"] for r in records)),
        "crew_lost_definitions": sum(bool(r["crew"]["lost"]) for r in records),
        "single_lost_definitions": sum(bool(r["single"]["lost"]) for r in records),
        "crew_seconds_per_request": round(sum(r["crew"]["seconds"] for r in records) / n, 1) if n else 0.0,
        "single_seconds_per_request": round(sum(r["single"]["seconds"] for r in records) / n, 1)
        if n
        else 0.0,
        **cost_figures(records, "crew"),
        **cost_figures(records, "single"),
        "example_echo_share": share(sum(r["crew"]["echoes"] for r in records)),
        "by_kind": {
            kind: {
                "requests": len(rows),
                "crew_passed": sum(r["crew"]["passed"] for r in rows),
                "single_passed": sum(r["single"]["passed"] for r in rows),
            }
            for kind in KINDS
            if (rows := [r for r in records if r["kind"] == kind])
        },
    }


def summary_lines(result: dict[str, Any], records: list[dict[str, Any]]) -> list[str]:
    n = result["requests"]
    lost_names = [
        f"{r['request']} ({'; '.join(', '.join(v) for v in r['crew']['lost'].values())})"
        for r in records
        if r["crew"]["lost"]
    ]
    kinds = ", ".join(
        f"{kind} {row['crew_passed']}/{row['requests']} vs {row['single_passed']}/{row['requests']}"
        for kind, row in result["by_kind"].items()
    )
    gain = 100 * (result["crew_pass_rate"] - result["single_pass_rate"])
    return [
        f"Acceptance set on {result['model']}, {result['date']}: {n} requests, "
        f"crew with {result['rounds']} round(s)"
        + "".join(f", without {name}" for name in result.get("rules", {}).get("without", []))
        + "".join(f", with {name}" for name in result.get("rules", {}).get("with", [])),
        f"pass rate: crew {result['crew_passed']}/{n} = {result['crew_pass_rate']:.1%}, "
        f"single call {result['single_passed']}/{n} = {result['single_pass_rate']:.1%} ({gain:+.1f} points)",
        f"by kind (crew vs single): {kinds}",
        f"false approvals: {result['false_approvals']} of {result['crew_approved']} approved runs "
        f"({result['false_approval_rate']:.1%} of requests)",
        f"lost definitions: crew {result['crew_lost_definitions']} run(s)"
        + (f" [{'; '.join(lost_names)}]" if lost_names else "")
        + f", single call {result['single_lost_definitions']} run(s)",
        f"seconds per request: crew {result['crew_seconds_per_request']:.1f}, "
        f"single call {result['single_seconds_per_request']:.1f}",
        cost_line(result),
        f"crew runs echoing the old prompt examples: {result['example_echo_share']:.0%}",
    ]


def _mark(o: Outcome) -> str:
    return "PASS" if o.passed else "fail"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.crew", description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None, help="catalog id or .gguf path (default: the IDE's default)")
    parser.add_argument("--limit", type=int, default=None, help="run only the first N requests")
    parser.add_argument("--only", default="", help="request names or prefixes, e.g. 01,02_edit")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--reviewer-model", default=None, help="a second model for the reviewer's turns (catalog id or .gguf)"
    )
    add_rule_arguments(parser)
    add_profile_argument(parser)
    parser.add_argument("--json", action="store_true", help="end with the summary as one JSON line")
    parser.add_argument(
        "--requests", type=Path, default=REQUESTS_DIR, help="the set's folder (default: bench/crew_requests)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help="where transcripts and results go (default bench/results/crew: pass --out with --requests)",
    )
    parser.add_argument("--merge", type=Path, nargs="+", help="summarize these runs' results.json as one run")
    profile = profile_defaults(parser, argv)
    args = parser.parse_args(argv)
    if args.list_rules:
        print(registry_json())
        return 0
    crew_base, rules = crew_settings(profile, rule_switches(parser, args))
    crew_base = with_candidates(crew_base, args.candidates)
    if args.merge:
        return merge(args.merge, args.out, as_json=args.json)

    requests = only(load_requests(args.requests), args.only)[: args.limit]
    if not requests:
        raise SystemExit(f"no requests to run in {args.requests}")
    args.out.mkdir(parents=True, exist_ok=True)
    engine = Engine(resolve_model(args.model), EngineSettings(n_ctx=N_CTX))
    engine.load()
    reviewer = None
    if args.reviewer_model:
        reviewer = Engine(resolve_model(args.reviewer_model), EngineSettings(n_ctx=N_CTX))
        reviewer.load()
    model = engine.model_path.name
    records: list[dict[str, Any]] = []
    try:
        for number, request in enumerate(requests, start=1):
            crew = run_crew(engine, request, args.rounds, rules=rules, crew=crew_base, reviewer=reviewer)
            single = run_single(engine, request)
            write_transcript(args.out, request, crew, single)
            records.append(record(request, crew, single))
            write_results(args.out, summarize(records, model, args.rounds, rules=rules), records)
            notes = " FALSE APPROVAL" if crew.false_approval else ""
            notes += f" LOST {sorted(crew.lost)}" if crew.lost else ""
            print(
                f"[{number:2d}/{len(requests)}] {request.name:<28} crew {_mark(crew)} "
                f"({'approved' if crew.approved else 'not approved'}, {crew.rounds} r, {crew.seconds:.0f} s)"
                f"{notes} | single {_mark(single)} ({single.seconds:.0f} s)"
                + (f" LOST {sorted(single.lost)}" if single.lost else ""),
                flush=True,
            )
    finally:
        engine.close()
        if reviewer is not None:
            reviewer.close()
    result = summarize(records, model, args.rounds, rules=rules)
    result["reviewer_model"] = reviewer.model_path.name if reviewer is not None else None
    result["profile"] = args.profile
    result["candidates"] = args.candidates  # None: chosen by the hardware
    return report(args.out, result, records, as_json=args.json)


def write_results(out: Path, result: dict[str, Any], records: list[dict[str, Any]]) -> None:
    (out / "results.json").write_text(json.dumps({"summary": result, "records": records}, indent=1))


def report(out: Path, result: dict[str, Any], records: list[dict[str, Any]], *, as_json: bool) -> int:
    write_results(out, result, records)
    print("\n".join(summary_lines(result, records)))
    if as_json:
        print(json.dumps(result))
    return 0


def merge(runs: list[Path], out: Path, *, as_json: bool) -> int:
    """One summary of a set run in parts (e.g. two processes on two cores), in request order."""
    loaded = [json.loads((run / "results.json").read_text()) for run in runs]
    models = {part["summary"]["model"] for part in loaded}
    crews = {(part["summary"]["rounds"], json.dumps(part["summary"].get("rules", {}))) for part in loaded}
    if len(models) != 1 or len(crews) != 1:
        raise SystemExit(f"cannot merge runs of different models or crews: {sorted(models)} {sorted(crews)}")
    records = sorted((r for part in loaded for r in part["records"]), key=lambda r: r["request"])
    names = [r["request"] for r in records]
    if len(set(names)) != len(names):
        raise SystemExit("cannot merge: a request appears in more than one run")
    out.mkdir(parents=True, exist_ok=True)
    (rounds, rules_json), model = crews.pop(), models.pop()
    described = json.loads(rules_json) or {}
    rules = RuleSwitches(frozenset(described.get("without", [])), frozenset(described.get("with", [])))
    result = summarize(records, model, rounds, rules=rules)
    return report(out, result, records, as_json=as_json)


if __name__ == "__main__":
    raise SystemExit(main())
