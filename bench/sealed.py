"""The sealed set: requests written the way users type them in the IDE, none tuned on.

    python -m bench.sealed --set dev|sealed|fresh [--model ID] [--limit N] [--only PREFIX] [--rounds 3]
        [--without RULE,...] [--with RULE,...] [--list-rules] [--json] [--out DIR]

bench/sealed_requests/ holds two halves of the same kinds (README.md there): `dev`, which the crew
may be tuned on, and `sealed`, which is run once, at the end, and reported as it came out; and
`fresh` (issue 55), 30 more requests of three kinds (failing, cross, followup), sealed too. Each
request is a folder NN_kind_what with turns/1.txt, 2.txt, ... (a follow-up: each turn builds on the
one before) or request.txt (one turn), files/ (the project before), hidden_test.py and reference/.

For each request, on a fresh copy of its project, run the turns in order in one workspace:

- crew: a fresh CrewRunner per turn on the same workspace, as the IDE runs a follow-up (the runner
  reads the previous run from the workspace's snapshots);
- single: one plain coder call per turn (bench.crew's baseline), each seeing the project as the
  previous turn left it, the earlier requests and what each reply wrote.

Then the hidden test grades the workspace after the last turn. Recorded per request, for both ways:
passed, seconds, user tests changed (a test file of the project whose bytes changed: no request
here asks to change a test), lost definitions (bench.crew's lost_in); for the crew also whether
every turn was approved and false approvals (approved, hidden test failed). The run ends with one
JSON line: the summary, with the date and the commit. Transcripts go to OUT/<request>.md, records
and the summary so far to OUT/results.json.

Reuses bench.crew's pieces (workspace, hidden test, lost definitions, the single call's prompt,
transcripts); nothing there changes for this set.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
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
from agents.events import EventBus
from agents.llm.roles import roles_for
from agents.request import files_named_in
from agents.rules.parse.file_blocks import file_blocks
from agents.rules.registry import RuleSwitches, registry_json
from agents.run.runner import CrewSettings
from bench.crew import (
    N_CTX,
    AcceptanceRequest,
    Outcome,
    RequestFolder,
    cost_figures,
    cost_line,
    crew_steps,
    lost_in,
    prepare_workspace,
    run_hidden_test,
    single_messages,
    write_results,
    write_transcript,
)
from bench.profile_flag import add_profile_argument, crew_settings, profile_defaults
from bench.project_health import measure
from bench.results_dir import dated
from bench.rule_flags import add_rule_arguments, rule_switches
from models.chat_engine import CallStats, EngineError, EngineSettings, Message
from models.engine import Engine
from models.model_path import resolve_model
from models.reply_budget import reply_budget_for
from tools.workspace_files import WorkspaceError, WorkspaceFiles

SETS_DIR = Path(__file__).resolve().parent / "sealed_requests"
SETS = ("dev", "sealed", "fresh")
DEFAULT_OUT = dated("sealed")
KINDS = ("edit", "followup", "failing", "rename", "class", "data", "noname")  # dev's and sealed's
FRESH_KINDS = ("failing", "cross", "followup")  # the fresh set's: cross is an edit across files
REPO = Path(__file__).resolve().parent.parent
SHOWN_REPLY_CHARS = 400  # an earlier reply in the single call's history, when it wrote nothing


# ---------- the set ----------


@dataclass(frozen=True)
class SealedRequest(RequestFolder):
    turns: tuple[str, ...]

    @property
    def text(self) -> str:
        """All turns as one text: what lost definitions and named files are judged against."""
        return "\n".join(self.turns)

    def as_acceptance(self) -> AcceptanceRequest:
        """The shape bench.crew's helpers take (workspace, transcript)."""
        shown = (
            "\n".join(f"(turn {n}) {t}" for n, t in enumerate(self.turns, 1))
            if len(self.turns) > 1
            else self.text
        )
        return AcceptanceRequest(self.name, self.kind, self.folder, shown)


def _turns(folder: Path) -> tuple[str, ...]:
    numbered = (
        sorted((folder / "turns").glob("*.txt"), key=lambda p: int(p.stem))
        if (folder / "turns").is_dir()
        else []
    )
    if numbered:
        return tuple(p.read_text(encoding="utf-8").strip() for p in numbered)
    return ((folder / "request.txt").read_text(encoding="utf-8").strip(),)


def load_set(which: str, root: Path = SETS_DIR) -> list[SealedRequest]:
    """One half in folder order; the order mixes the kinds, so --limit N still samples several."""
    if which not in SETS:
        raise ValueError(f"no set {which!r}: {', '.join(SETS)}")
    found = []
    for folder in sorted(p for p in (root / which).iterdir() if p.is_dir()):
        if (folder / "hidden_test.py").is_file():
            found.append(SealedRequest(folder.name, folder.name.split("_")[1], folder, _turns(folder)))
    return found


def only(requests: list[SealedRequest], names: str) -> list[SealedRequest]:
    """The requests whose names start with one of the comma-separated prefixes ('' keeps all)."""
    prefixes = tuple(p.strip() for p in names.split(",") if p.strip())
    return [r for r in requests if r.name.startswith(prefixes)] if prefixes else requests


def is_user_test(rel: str) -> bool:
    """A test of the user's project: test_*.py, *_test.py, conftest.py or anything under tests/."""
    parts = rel.split("/")
    name = parts[-1]
    in_tests = "tests" in parts[:-1]
    return (
        in_tests
        or name == "conftest.py"
        or (name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py")))
    )


def user_tests_changed(request: SealedRequest, workspace: Path) -> list[str]:
    """The project's own test files whose bytes are not what they were (or that are gone)."""
    changed = []
    for path in sorted(p for p in request.files.rglob("*") if p.is_file()):
        rel = path.relative_to(request.files).as_posix()
        if is_user_test(rel):
            now = workspace / rel
            if not now.is_file() or now.read_bytes() != path.read_bytes():
                changed.append(rel)
    return changed


# ---------- one request, two ways ----------


@dataclass
class Graded:
    """bench.crew's Outcome of all turns, and what this set counts besides."""

    outcome: Outcome
    tests_changed: list[str]
    turns_approved: list[bool]
    worse: list[str] = field(default_factory=list)  # what was right before the run and is not now


def _written(workspace: Path, paths: list[str]) -> dict[str, str]:
    out = {}
    for rel in dict.fromkeys(paths):
        path = workspace / rel
        out[rel] = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else "(deleted)"
    return out


def run_crew_turns(
    engine: Engine,
    request: SealedRequest,
    rounds: int,
    *,
    rules: RuleSwitches | None = None,
    crew: CrewSettings | None = None,
) -> Graded:
    """Each turn by a fresh crew on the same workspace, then the hidden test. `crew`: a profile's
    settings (None: the defaults); `rounds` and `rules` override its own."""
    settings = replace(crew or CrewSettings(), rounds=rounds, rules=rules or RuleSwitches())
    with tempfile.TemporaryDirectory(prefix="bench-sealed-crew-") as folder:
        workspace = Path(folder)
        before = prepare_workspace(request.as_acceptance(), workspace)
        health = measure(workspace)
        began = time.perf_counter()
        changed: list[str] = []
        approved: list[bool] = []
        steps: list[dict[str, Any]] = []
        rounds_used, messages = 0, []
        for number, turn in enumerate(request.turns, start=1):
            bus = EventBus()
            steps.append({"step": "note", "who": "user", "message": f"turn {number}: {turn}"})
            summary = build_crew(engine, workspace, bus, settings).run(turn)
            changed += summary.files_changed
            approved.append(summary.approved)
            rounds_used += summary.rounds_used
            messages.append(summary.message)
            steps += crew_steps(bus.history)
        seconds = time.perf_counter() - began
        files = _written(workspace, changed)
        lost = lost_in(before, workspace, request.text)
        touched = user_tests_changed(request, workspace)
        worse = measure(workspace).worse_than(health)
        passed, output = run_hidden_test(workspace, request.hidden_test)
    outcome = Outcome(
        passed=passed,
        seconds=seconds,
        test_output=output,
        files=files,
        lost=lost,
        approved=all(approved),
        rounds=rounds_used,
        message=" | ".join(m for m in messages if m),
        steps=steps,
    )
    return Graded(outcome, touched, approved, worse)


def workspace_texts(workspace: Path) -> dict[str, str]:
    """The project's text files as they are now (what the next single call is shown)."""
    return {
        p.relative_to(workspace).as_posix(): p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(workspace.rglob("*"))
        if p.is_file() and ".localcrew" not in p.relative_to(workspace).parts
    }


def single_turn(
    engine: Engine, workspace: Path, request: SealedRequest, number: int, history: list[Message]
) -> tuple[str, list[str], list[str], CallStats]:
    """One plain call for turn `number` (1-based): (reply, paths written, problems, stats)."""
    gen = roles_for(reply_budget_for(engine.info, engine.settings.n_ctx)).coder.generation
    turn = request.turns[number - 1]
    now = workspace_texts(workspace)
    system, user = single_messages(engine, turn, now)
    problems: list[str] = []
    try:
        reply, stats = engine.chat([system, *history, user], gen)
    except EngineError as exc:  # e.g. a prompt too long for the context: a failed turn
        reply, stats = "", CallStats()
        problems.append(f"turn {number}: the call failed: {exc}")
    written: list[str] = []
    files = WorkspaceFiles(workspace)
    # The files any turn so far names: a follow-up ("now make it also ...") often names none.
    named = files_named_in("\n".join(request.turns[:number]))
    for block in file_blocks(reply, named, shown=now):
        try:
            files.write_text(block.path, block.content)
            written.append(block.path)
        except (WorkspaceError, OSError) as exc:
            problems.append(f"turn {number}: {block.path}: {exc}")
    return reply, written, problems, stats


def _said(reply: str, written: list[str]) -> str:
    """An earlier reply as the next call's history: what it wrote (the files themselves are shown
    as they are now), or the start of what it said."""
    if written:
        return f"I wrote {', '.join(written)}."
    return reply[:SHOWN_REPLY_CHARS] or "(no reply)"


def run_single_turns(engine: Engine, request: SealedRequest) -> Graded:
    """One plain call per turn on the same workspace, then the hidden test."""
    with tempfile.TemporaryDirectory(prefix="bench-sealed-single-") as folder:
        workspace = Path(folder)
        before = prepare_workspace(request.as_acceptance(), workspace)
        health = measure(workspace)
        began = time.perf_counter()
        history: list[Message] = []
        written_all: list[str] = []
        steps: list[dict[str, Any]] = []
        finish = []
        for number, turn in enumerate(request.turns, start=1):
            reply, written, problems, stats = single_turn(engine, workspace, request, number, history)
            history += [
                {"role": "user", "content": turn},
                {"role": "assistant", "content": _said(reply, written)},
            ]
            written_all += written
            steps.append({"step": "note", "who": "user", "message": f"turn {number}: {turn}"})
            steps.append(
                {
                    "step": "agent",
                    "agent": "single",
                    "round": number,
                    "seconds": round(stats.total_s, 1),
                    "output": reply,
                }
            )
            steps += [{"step": "note", "who": "error", "message": p} for p in problems]
            finish.append(
                f"turn {number}: finish reason {stats.finish_reason}, {stats.completion_tokens} tokens"
            )
        seconds = time.perf_counter() - began
        lost = lost_in(before, workspace, request.text)
        touched = user_tests_changed(request, workspace)
        worse = measure(workspace).worse_than(health)
        passed, output = run_hidden_test(workspace, request.hidden_test)
        content = _written(workspace, written_all)
    outcome = Outcome(
        passed=passed,
        seconds=seconds,
        test_output=output,
        files=content,
        lost=lost,
        message="; ".join(finish),
        steps=steps,
    )
    return Graded(outcome, touched, [], worse)


# ---------- records and the summary ----------


def record(request: SealedRequest, crew: Graded, single: Graded) -> dict[str, Any]:
    def brief(g: Graded) -> dict[str, Any]:
        o = g.outcome
        return {
            "passed": o.passed,
            "seconds": round(o.seconds, 1),
            "lost": o.lost,
            "tests_changed": g.tests_changed,
            "worse": g.worse,
            "files": sorted(o.files),
        }

    c = crew.outcome
    return {
        "request": request.name,
        "kind": request.kind,
        "turns": len(request.turns),
        "crew": brief(crew)
        | {
            "approved": c.approved,
            "turns_approved": crew.turns_approved,
            "false_approval": c.false_approval,
            "rounds": c.rounds,
        },
        "single": brief(single),
    }


@functools.lru_cache(maxsize=1)
def commit() -> dict[str, Any]:
    """The commit the run measured, and whether the working tree differed from it: read once, at
    the start (a run of hours reported the commit made while it ran)."""

    def git(*args: str) -> str:
        try:
            done = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.SubprocessError):
            return ""
        return done.stdout.strip() if done.returncode == 0 else ""

    return {
        "commit": git("rev-parse", "--short", "HEAD") or "unknown",
        "dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
    }


def _counts(rows: list[dict[str, Any]], way: str) -> dict[str, Any]:
    n = len(rows)
    return {
        f"{way}_passed": sum(r[way]["passed"] for r in rows),
        f"{way}_tests_changed": sum(bool(r[way]["tests_changed"]) for r in rows),
        f"{way}_lost_definitions": sum(bool(r[way]["lost"]) for r in rows),
        f"{way}_left_worse": sum(bool(r[way].get("worse")) for r in rows),
        f"{way}_seconds": round(sum(r[way]["seconds"] for r in rows), 1),
        f"{way}_seconds_per_request": round(sum(r[way]["seconds"] for r in rows) / n, 1) if n else 0.0,
        **cost_figures(rows, way),
    }


def summarize(
    records: list[dict[str, Any]], which: str, model: str, rounds: int, *, rules: RuleSwitches | None = None
) -> dict[str, Any]:
    n = len(records)

    def share(count: int) -> float:
        return round(count / n, 4) if n else 0.0

    crew, single = _counts(records, "crew"), _counts(records, "single")
    false_approvals = sum(r["crew"]["false_approval"] for r in records)
    return {
        "bench": "sealed-set",
        "set": which,
        "date": datetime.date.today().isoformat(),
        **commit(),
        "model": model,
        "rounds": rounds,
        "rules": (rules or RuleSwitches()).describe(),
        "requests": n,
        **crew,
        **single,
        "crew_pass_rate": share(crew["crew_passed"]),
        "single_pass_rate": share(single["single_passed"]),
        "points": round(100 * (share(crew["crew_passed"]) - share(single["single_passed"])), 1),
        "crew_approved": sum(r["crew"]["approved"] for r in records),
        "false_approvals": false_approvals,
        "false_approval_rate": share(false_approvals),
        "by_kind": {
            kind: {
                "requests": len(rows),
                "crew_passed": sum(r["crew"]["passed"] for r in rows),
                "single_passed": sum(r["single"]["passed"] for r in rows),
            }
            for kind in dict.fromkeys(KINDS + FRESH_KINDS)
            if (rows := [r for r in records if r["kind"] == kind])
        },
    }


def summary_lines(result: dict[str, Any]) -> list[str]:
    n = result["requests"]
    r = result
    kinds = ", ".join(
        f"{kind} {row['crew_passed']}/{row['requests']} vs {row['single_passed']}/{row['requests']}"
        for kind, row in r["by_kind"].items()
    )
    rules = r.get("rules", {})
    return [
        f"Sealed set ({r['set']}) on {r['model']}, {r['date']}, commit {r['commit']}"
        + (" (with uncommitted changes)" if r["dirty"] else "")
        + f": {n} requests, crew with {r['rounds']} round(s)"
        + "".join(f", without {name}" for name in rules.get("without", []))
        + "".join(f", with {name}" for name in rules.get("with", [])),
        f"pass: crew {r['crew_passed']}/{n}, single call {r['single_passed']}/{n} "
        f"({r['points']:+.1f} points)",
        f"by kind (crew vs single): {kinds}",
        f"false approvals: {r['false_approvals']} of {r['crew_approved']} approved",
        f"user tests changed: crew {r['crew_tests_changed']}, single {r['single_tests_changed']}; "
        f"lost definitions: crew {r['crew_lost_definitions']}, single {r['single_lost_definitions']}",
        f"left the project worse (a test or an import that worked before): crew {r['crew_left_worse']}, "
        f"single {r['single_left_worse']}",
        f"seconds per request: crew {r['crew_seconds_per_request']:.1f}, "
        f"single {r['single_seconds_per_request']:.1f}",
        cost_line(r),
    ]


# ---------- the run ----------


def _progress(number: int, total: int, request: SealedRequest, crew: Graded, single: Graded) -> str:
    def mark(g: Graded) -> str:
        notes = " TESTS CHANGED" if g.tests_changed else ""
        notes += f" LOST {sorted(g.outcome.lost)}" if g.outcome.lost else ""
        notes += " WORSE" if g.worse else ""
        return f"{'PASS' if g.outcome.passed else 'fail'} ({g.outcome.seconds:.0f} s){notes}"

    c = crew.outcome
    approval = "approved" if c.approved else "not approved"
    false = " FALSE APPROVAL" if c.false_approval else ""
    name = f"[{number:2d}/{total}] {request.name:<34}"
    return f"{name} crew {mark(crew)} {approval}{false} | single {mark(single)}"


def run_set(
    engine: Engine,
    requests: list[SealedRequest],
    which: str,
    out: Path,
    rounds: int,
    rules: RuleSwitches | None = None,
    settings: CrewSettings | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Every request both ways, in order; results.json is rewritten after each. `settings`: a
    profile's crew settings (None: the defaults)."""
    commit()  # the code this process runs, before anything is committed while it runs
    out.mkdir(parents=True, exist_ok=True)
    model = engine.model_path.name
    records: list[dict[str, Any]] = []
    for number, request in enumerate(requests, start=1):
        crew = run_crew_turns(engine, request, rounds, rules=rules, crew=settings)
        single = run_single_turns(engine, request)
        write_transcript(out, request.as_acceptance(), crew.outcome, single.outcome)
        records.append(record(request, crew, single))
        write_results(out, summarize(records, which, model, rounds, rules=rules), records)
        print(_progress(number, len(requests), request, crew, single), flush=True)
    result = summarize(records, which, model, rounds, rules=rules)
    write_results(out, result, records)
    return result, records


def parse_args(argv: list[str] | None) -> tuple[argparse.Namespace, RuleSwitches | None]:
    parser = argparse.ArgumentParser(prog="python -m bench.sealed", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--set",
        dest="which",
        choices=SETS,
        default="dev",
        help="dev (tune on it), or sealed or fresh (each once, at the end)",
    )
    parser.add_argument("--model", default=None, help="catalog id or .gguf path (default: the IDE's default)")
    parser.add_argument("--limit", type=int, default=None, help="run only the first N requests")
    parser.add_argument("--only", default="", help="request names or prefixes, e.g. 01,04_followup")
    parser.add_argument("--rounds", type=int, default=3)
    add_rule_arguments(parser)
    add_profile_argument(parser)
    parser.add_argument("--json", action="store_true", help="end with the summary as one JSON line")
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="where transcripts and results go (default: bench/results/sealed/SET)",
    )
    profile = profile_defaults(parser, argv)
    args = parser.parse_args(argv)
    if args.list_rules:
        return args, None
    args.crew, rules = crew_settings(profile, rule_switches(parser, args))
    return args, rules


def main(argv: list[str] | None = None, *, engine: Engine | None = None) -> int:
    """`engine`: one already loaded (the tests' scripted engine); None loads --model."""
    args, rules = parse_args(argv)
    if args.list_rules:
        print(registry_json())
        return 0
    requests = only(load_set(args.which), args.only)[: args.limit]
    out = args.out or DEFAULT_OUT / args.which
    owned = engine is None
    if engine is None:
        engine = Engine(resolve_model(args.model), EngineSettings(n_ctx=N_CTX))
        engine.load()
    try:
        result, records = run_set(engine, requests, args.which, out, args.rounds, rules, args.crew)
    finally:
        if owned:
            engine.close()
    result["profile"] = args.profile
    write_results(out, result, records)
    print("\n".join(summary_lines(result)))
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
