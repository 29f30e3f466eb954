"""Each rule switched off alone, against the crew with every rule as it is: the table of issue 41
("every rule earns its place"). Runs one benchmark once per configuration, each in its own process
and its own folder, then compares item by item.

    python -m bench.ablation --bench humaneval --rules all --out DIR -- --model ID --limit 82
    python -m bench.ablation --bench sealed --rules keep_best,put_back_unasked --out DIR -- --set dev

`--rules all`: every rule on by default. Whatever follows `--` goes to the benchmark as it is
(`--mode crew` is added for humaneval). A configuration whose run ended is read, not run again; a
stopped one runs again (bench.humaneval then skips the problems it has), so a stopped ablation goes
on where it stopped. Per rule: items passed, won and lost
against the baseline (an item that passes only without the rule is won by switching it off), and
seconds per item. Writes DIR/README.md and ends with one JSON line. `--cache`: the
configurations share the model's replies (bench.replay cache), so a switch that changes few
prompts costs few decodes.
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from agents.rules.registry import RULES

BASELINE = "(all rules as they are)"
BENCHES = ("humaneval", "sealed", "crew")
DONE = "ablation-done"  # written in a configuration's folder when its run ended


@dataclass(frozen=True)
class Row:
    config: str  # BASELINE or the rule switched off
    passed: int
    items: int
    won: list[str]  # pass without the rule, fail with it
    lost: list[str]  # fail without the rule, pass with it
    seconds_per_item: float
    # Items the switch changed at all (the code kept, the model calls, the rounds, the approval),
    # passing or not: 0 says the rule never acted on this set.
    changed: list[str] = field(default_factory=list)


class Outcome(NamedTuple):
    """One item of one configuration."""

    passed: bool
    seconds: float
    ended: str = ""  # what the run ended with (code kept, calls, rounds, approval), as JSON


def _signature(record: dict[str, Any], keys: tuple[str, ...]) -> str:
    return json.dumps([record.get(k) for k in keys], sort_keys=True, default=str)


def outcomes(bench: str, folder: Path) -> dict[str, Outcome] | None:
    """Item -> (passed, seconds, what it ended with) of the crew, from a benchmark's output folder;
    None if none yet."""
    if bench == "humaneval":
        path = folder / "records.jsonl"
        if not path.is_file():
            return None
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        ended = ("solution", "rounds", "llm_calls")
        return {
            r["task_id"]: Outcome(bool(r["passed"]), float(r["seconds"]), _signature(r, ended))
            for r in rows
            if r.get("mode") == "crew"
        }
    path = folder / "results.json"
    if not path.is_file():
        return None
    records = json.loads(path.read_text())["records"]
    ended = ("approved", "rounds", "files", "lost", "tests_changed")
    return {
        r["request"]: Outcome(bool(c["passed"]), float(c["seconds"]), _signature(c, ended))
        for r in records
        for c in [r["crew"]]
    }


def finished(folder: Path, found: dict[str, Outcome] | None, base: dict[str, Outcome]) -> bool:
    """A configuration ran to its end: its run said so, or (a folder from before the marker) it has
    every item the baseline has. A stopped one runs again; the benchmark keeps what it has."""
    return (folder / DONE).is_file() or bool(base and found and set(base) <= set(found))


def compare(config: str, base: dict[str, Outcome], runs: dict[str, Outcome]) -> Row:
    """One row: `runs` against `base`, on the items both have."""
    items = sorted(set(base) & set(runs))
    won = [i for i in items if runs[i].passed and not base[i].passed]
    lost = [i for i in items if base[i].passed and not runs[i].passed]
    changed = [i for i in items if (runs[i].passed, runs[i].ended) != (base[i].passed, base[i].ended)]
    seconds = sum(runs[i].seconds for i in items) / len(items) if items else 0.0
    return Row(config, sum(runs[i].passed for i in items), len(items), won, lost, round(seconds, 1), changed)


def command(
    bench: str, out: Path, rule: str | None, passed_on: list[str], cache: Path | None = None
) -> list[str]:
    """`cache`: the configurations share one bench.replay cache of model calls, so each decodes
    only the calls its switch changes (and its seconds are no longer the model's)."""
    cached = ["-m", "bench.replay", "cache", str(cache), "--"] if cache else []
    argv = [sys.executable, *cached, "-m", f"bench.{bench}", *passed_on, "--out", str(out), "--json"]
    if bench == "humaneval" and "--mode" not in passed_on:
        argv += ["--mode", "crew"]
    return argv + (["--without", rule] if rule else [])


def table(rows: list[Row]) -> str:
    base = rows[0]
    lines = [
        "| switched off | passed | won | lost | items run differently | s / item | Δ s / item |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        delta = "" if row is base else f"{row.seconds_per_item - base.seconds_per_item:+.1f}"
        won = f"{len(row.won)} ({', '.join(row.won[:4])})" if row.won else "0"
        lost = f"{len(row.lost)} ({', '.join(row.lost[:4])})" if row.lost else "0"
        seconds = f"{row.seconds_per_item} | {delta}"
        changed = " | " if row is base else f"{len(row.changed)} | "
        lines.append(f"| {row.config} | {row.passed} / {row.items} | {won} | {lost} | {changed}{seconds} |")
    return "\n".join(lines)


def chosen_rules(spec: str) -> list[str]:
    names = [r.name for r in RULES if r.default] if spec == "all" else [s for s in spec.split(",") if s]
    unknown = sorted(set(names) - {r.name for r in RULES})
    if unknown:
        raise SystemExit(f"unknown rule(s): {', '.join(unknown)} (python -m bench.crew --list-rules)")
    return names


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    split = argv.index("--") if "--" in argv else len(argv)
    parser = argparse.ArgumentParser(prog="python -m bench.ablation", description=__doc__.splitlines()[0])
    parser.add_argument("--bench", choices=BENCHES, required=True)
    parser.add_argument("--rules", default="all", help="all (every rule on by default) or NAME,NAME")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--cache",
        action="store_true",
        help="share the model's replies between configurations (OUT/calls.jsonl): each decodes only"
        " the calls its switch changes; pass counts hold at temperature 0, seconds do not",
    )
    args = parser.parse_args(argv[:split])
    passed_on = argv[split + 1 :]
    rules = chosen_rules(args.rules)
    rows: list[Row] = []
    base: dict[str, Outcome] = {}
    for rule in [None, *rules]:
        folder = args.out / (rule or "baseline")
        found = outcomes(args.bench, folder)
        if not finished(folder, found, base):
            print(f"== {rule or BASELINE}", flush=True)
            cache = args.out / "calls.jsonl" if args.cache else None
            done = subprocess.run(command(args.bench, folder, rule, passed_on, cache), check=False)
            if done.returncode == 0:
                (folder / DONE).touch()
            found = outcomes(args.bench, folder) or {}
        base = base or found
        rows.append(compare(rule or BASELINE, base, found))
    text = f"# Ablation, {args.bench}, {datetime.date.today()}\n\n{table(rows)}\n"
    if args.cache:
        text += "\nModel calls shared through bench.replay's cache: seconds count only the calls decoded.\n"
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "README.md").write_text(text)
    print(text)
    print(json.dumps({"bench": "ablation", "of": args.bench, "rows": [asdict(r) for r in rows]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
