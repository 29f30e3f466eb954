"""Asked "this test fails, fix it", on a real model, with the test-judged search on and off (issue 55).

    python -m bench.judged_fix [--model ID] [--repeats 3] [--rounds 3] [--out DIR]
        [--ways search,evidence,old] [--tasks total,cart]

Each task is a tiny project with a one-word bug its failing test points at (`t = x` where
`t += x` is meant), asked as a user asks: "The test test_total fails, fix it". Each repeat runs
the crew on a fresh copy each way: `search` (every rule on), `evidence` (without
test_judged_candidates: the sequential rounds, shown the failure), `old` (without
test_judged_candidates and failure_evidence: the crew before issue 55). The seed moves with the
repeat: round 1's greedy answer is the same, the sampled ones differ. A run is
solved when the project's whole suite passes afterwards in the sandbox. One JSON line per run,
then the totals; OUT/results.json keeps them all.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import models.llama_libs  # noqa: F401, I001  (llama.cpp's libraries before numpy's)
import offline  # noqa: F401, I001
from agents.crew_factory import build_crew
from agents.events import EventBus, Notice
from agents.rules.registry import RuleSwitches
from agents.run.runner import CrewSettings
from models.chat_engine import EngineSettings
from models.engine import Engine
from models.model_path import resolve_model
from tools.sandbox import RunLimits, run_pytest

N_CTX = 4096  # the IDE's default context


LEDGER = (
    '"""A small ledger: entries, balances and statements."""\n\n'
    "from dataclasses import dataclass\n\n\n"
    "@dataclass\nclass Entry:\n    day: int\n    amount: float\n    note: str = ''\n\n\n"
    "def deposits(entries):\n    return [e for e in entries if e.amount > 0]\n\n\n"
    "def withdrawals(entries):\n    return [e for e in entries if e.amount < 0]\n\n\n"
    "def balance(entries, opening=0.0):\n"
    '    """The balance after every entry, from the opening balance."""\n'
    "    total = opening\n    for entry in entries:\n        total = entry.amount\n    return total\n\n\n"
    "def largest(entries):\n    return max(entries, key=lambda e: abs(e.amount), default=None)\n\n\n"
    "def on_day(entries, day):\n    return [e for e in entries if e.day == day]\n\n\n"
    "def statement(entries, opening=0.0):\n"
    "    lines = [f'opening {opening:.2f}']\n    running = opening\n"
    "    for entry in sorted(entries, key=lambda e: e.day):\n        running += entry.amount\n"
    "        lines.append(f'day {entry.day}: {entry.amount:+.2f} -> {running:.2f} {entry.note}'.rstrip())\n"
    "    return '\\n'.join(lines)\n"
)
REPORT = (
    "from ledger import Entry, deposits, statement, withdrawals\n\n\n"
    "def summary(entries):\n    ins = sum(e.amount for e in deposits(entries))\n"
    "    outs = -sum(e.amount for e in withdrawals(entries))\n"
    "    return f'in {ins:.2f}, out {outs:.2f}'\n\n\n"
    # Padding, so that the project is too big to be shown whole (agents/run/coder_turn.small_project_files).
    + "".join(
        f"def on_days_{i}(entries):\n    return [e for e in entries if e.day <= {i}]\n\n\n" for i in range(60)
    )
    + "if __name__ == '__main__':\n"
    "    book = [Entry(1, 100.0, 'salary'), Entry(2, -30.0, 'food'), Entry(3, -12.5)]\n"
    "    print(statement(book))\n    print(summary(book))\n"
)
TEST_LEDGER = (
    "from ledger import Entry, balance, deposits, largest, statement\n\n"
    "BOOK = [Entry(1, 100.0, 'salary'), Entry(2, -30.0, 'food'), Entry(3, 20.0, 'refund')]\n\n\n"
    "def test_deposits():\n    assert [e.amount for e in deposits(BOOK)] == [100.0, 20.0]\n\n\n"
    "def test_balance_after_deposits():\n    assert balance(BOOK, opening=10.0) == 100.0\n\n\n"
    "def test_balance_of_nothing_is_the_opening():\n    assert balance([], opening=5.0) == 5.0\n\n\n"
    "def test_largest():\n    assert largest(BOOK).amount == 100.0\n\n\n"
    "def test_statement_ends_with_the_balance():\n"
    "    assert statement(BOOK).splitlines()[-1].startswith('day 3: +20.00 -> 90.00')\n"
)


@dataclass(frozen=True)
class Task:
    name: str
    files: dict[str, str]
    request: str


TASKS = (
    Task(
        "total",
        {
            "calc.py": "def total(xs):\n    t = 0\n    for x in xs:\n        t = x\n    return t\n\n\n"
            "def mean(xs):\n    return total(xs) / len(xs) if xs else 0.0\n",
            "test_calc.py": "from calc import mean, total\n\n\ndef test_total():\n"
            "    assert total([1, 2, 3]) == 6\n\n\ndef test_mean_of_nothing():\n    assert mean([]) == 0.0\n",
        },
        "The test test_total fails, fix it",
    ),
    Task(
        "ledger",  # too big to show whole: the coder is shown the code the request is about
        {
            "ledger.py": LEDGER,
            "report.py": REPORT,
            "tests/__init__.py": "",
            "tests/test_ledger.py": TEST_LEDGER,
        },
        "The test test_balance_after_deposits fails, fix it",
    ),
    Task(
        "cart",
        {
            "cart.py": "class Cart:\n    def __init__(self):\n        self.items = []\n\n"
            "    def add(self, name, price):\n        self.items.append((name, price))\n\n"
            "    def total(self):\n        total = 0\n        for _, price in self.items:\n"
            "            total = price\n        return total\n",
            "test_cart.py": "from cart import Cart\n\n\ndef test_cart_total():\n    cart = Cart()\n"
            "    cart.add('tea', 3)\n    cart.add('cake', 4)\n    assert cart.total() == 7\n\n\n"
            "def test_empty_cart():\n    assert Cart().total() == 0\n",
        },
        "The test test_cart_total fails, fix it",
    ),
)


WAYS = {
    "search": frozenset(),
    "evidence": frozenset({"test_judged_candidates"}),
    "old": frozenset({"test_judged_candidates", "failure_evidence"}),
}


def run_once(engine: Engine, task: Task, *, way: str, seed: int, rounds: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-judged-") as folder:
        workspace = Path(folder)
        for rel, text in task.files.items():
            (workspace / rel).parent.mkdir(parents=True, exist_ok=True)
            (workspace / rel).write_text(text)
        settings = CrewSettings(rounds=rounds, seed=seed, rules=RuleSwitches(WAYS[way]))
        bus = EventBus()
        began = time.perf_counter()
        summary = build_crew(engine, workspace, bus, settings).run(task.request)
        seconds = time.perf_counter() - began
        after = run_pytest(workspace, ".", limits=RunLimits(wall_s=120))
        tried = sum(isinstance(e, Notice) and e.message.startswith("Candidate ") for e in bus.history)
        return {
            "task": task.name,
            "way": way,
            "seed": seed,
            "solved": after.exit_code == 0,
            "approved": summary.approved,
            "rounds": summary.rounds_used,
            "candidates_tried": tried,
            "seconds": round(seconds, 1),
            "llm_seconds": round(summary.llm_seconds, 1),
            "tokens_generated": summary.tokens_generated,
            "message": summary.message[:200],
        }


def totals(records: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for way in WAYS:
        mine = [r for r in records if r["way"] == way]
        if not mine:
            continue
        out[way] = {
            "runs": len(mine),
            "solved": sum(r["solved"] for r in mine),
            "mean_seconds": round(sum(r["seconds"] for r in mine) / len(mine), 1),
            "mean_tokens": round(sum(r["tokens_generated"] for r in mine) / len(mine)),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tasks", default="", help="comma-separated task names (default: all)")
    parser.add_argument("--ways", default=",".join(WAYS), help="comma-separated: search, evidence, old")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    engine = Engine(resolve_model(args.model), EngineSettings(n_ctx=N_CTX))
    engine.load()
    names = {n for n in args.tasks.split(",") if n}
    ways = [w for w in args.ways.split(",") if w]
    unknown = [w for w in ways if w not in WAYS]
    if unknown:
        parser.error(f"no such way: {', '.join(unknown)}")
    records: list[dict[str, Any]] = []
    try:
        for repeat in range(args.repeats):
            for task in [t for t in TASKS if not names or t.name in names]:
                for way in ways:
                    record = run_once(engine, task, way=way, seed=42 + repeat, rounds=args.rounds)
                    record["model"] = engine.model_path.name
                    records.append(record)
                    print(json.dumps(record), flush=True)
                    if args.out:
                        args.out.mkdir(parents=True, exist_ok=True)
                        result = {"records": records, "totals": totals(records)}
                        (args.out / "results.json").write_text(json.dumps(result, indent=1))
    finally:
        engine.close()
    print(json.dumps(totals(records)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
