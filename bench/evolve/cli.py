"""An evolutionary search over the crew's configuration, scored on HumanEval's dev problems.

    python -m bench.evolve --model ID [--population 4] [--generations 4] [--elite N]
        [--budget-min M] [--problems 0-81] [--resume] [--seed S] [--out DIR] [--name NAME]

A configuration is a typed vector (bench/evolve/space.py): rounds, retry "fresh"/"fix", the
coder's temperature on a sampled retry, and each rule's switch. Generation 1 is the hand-tuned
crew and mutants of it; each later one keeps the `elite` best and breeds the rest by tournament,
uniform crossover and mutation (bench/evolve/search.py), every random choice from one
random.Random(--seed). Fitness: problems of --problems passed (`0-81`, `0-81:8` every 8th,
`3,5,9`), then the fewer seconds per problem.

Each (task, configuration) result goes to OUT/cache.jsonl as it finishes and each generation to
OUT/lineage.jsonl, so a generation runs only what was never run, and a run stopped by Ctrl-C, a
kill or --budget-min continues with --resume. OUT/fitness.png plots best and mean per
generation. At the end the winner is written as a crew profile, profiles/<model>-<name>.json
(agents/crew_profile.py; `--profile NAME` on bench.humaneval and bench.crew), and a copy in OUT;
the last line printed is one JSON object. Problems 82-163 are held out: this never runs them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agents.crew_profile import PROFILES_DIR
from bench.evolve.fitness import FAKE_ENV, Fitness, ScriptedFitness
from bench.evolve.report import PLOT, generation_row, model_stem, plot, write_winner
from bench.evolve.search import Member, initial_population, next_generation, ranked
from bench.evolve.space import gene_names, key
from bench.evolve.store import (
    ResultCache,
    append_generation,
    check_run,
    read_lineage,
    restore_rng,
    rng_state,
)

RESULTS = Path(__file__).resolve().parents[1] / "results"
DEV = range(0, 82)  # HumanEval's dev half; 82-163 are held out


class BudgetSpent(Exception):
    pass


def parse_problems(text: str) -> list[int]:
    """`0-81`, `0-81:8` (every 8th from 0), `3,5,9` or a mix; only dev problems (0-81)."""
    chosen: list[int] = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        span, _, step = part.partition(":")
        first, _, last = span.partition("-")
        chosen += range(int(first), int(last or first) + 1, int(step or 1))
    outside = sorted(set(chosen) - set(DEV))
    if outside or not chosen:
        raise ValueError(f"--problems must name dev problems (0-81); not {outside or text!r}")
    return sorted(set(chosen))


class Scorer:
    """Scores members problem by problem, the cache first; times fresh runs for the ETA."""

    def __init__(self, fitness: Fitness, cache: ResultCache, problems: list[int], deadline: float | None):
        self.fitness, self.cache, self.problems, self.deadline = fitness, cache, problems, deadline
        self.fresh: list[float] = []  # wall seconds of each fresh evaluation
        self.cached = 0

    def missing(self, members: list[Member]) -> int:
        keys = {key(m.config) for m in members}
        return sum(self.cache.get(self.fitness.task_id(i), k) is None for k in keys for i in self.problems)

    def score(self, member: Member) -> None:
        passed, seconds = 0, 0.0
        for index in self.problems:
            row = self._result(member, index)
            passed += bool(row["passed"])
            seconds += float(row["seconds"])
        member.passed, member.problems = passed, len(self.problems)
        member.seconds, member.scored = seconds / len(self.problems), True

    def _result(self, member: Member, index: int) -> dict[str, Any]:
        task_id, config_key = self.fitness.task_id(index), key(member.config)
        row = self.cache.get(task_id, config_key)
        if row is not None:
            self.cached += 1
            return row
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise BudgetSpent
        began = time.monotonic()
        passed, seconds = self.fitness(member.config, index)
        self.fresh.append(time.monotonic() - began)
        row = self.cache.put(task_id, config_key, passed, seconds)
        print(f"    {member.id} {task_id:14s} {'PASS' if passed else 'fail'} {seconds:.1f}s", flush=True)
        return row

    def eta(self, left: int) -> str:
        if not self.fresh:
            return "ETA unknown"
        return f"ETA ~{left * sum(self.fresh) / len(self.fresh) / 60:.0f} min ({left} runs)"


def _start(
    args: argparse.Namespace, out: Path, genes: list[str]
) -> tuple[int, list[Member], random.Random, set[str]]:
    """The next generation to score, its members, the generator and every key scored so far."""
    lineage = read_lineage(out) if args.resume else []
    if not lineage:
        rng = random.Random(args.seed)
        return 1, initial_population(args.population, rng, genes), rng, set()
    seen = {key(Member.from_dict(m).config) for row in lineage for m in row["members"]}
    last = lineage[-1]
    rng = restore_rng(last["rng_state"])
    scored = [Member.from_dict(m) for m in last["members"]]
    members = next_generation(scored, args.population, args.elite, rng, genes, seen)
    return last["generation"] + 1, members, rng, seen


def search(args: argparse.Namespace, fitness: Fitness, out: Path) -> dict[str, Any]:
    genes = gene_names()
    problems = parse_problems(args.problems)
    cache = ResultCache(out, fitness.model)
    deadline = time.monotonic() + 60 * args.budget_min if args.budget_min else None
    scorer = Scorer(fitness, cache, problems, deadline)
    generation, members, rng, seen = _start(args, out, genes)
    stopped = None
    try:
        while generation <= args.generations:
            _score_generation(args, scorer, generation, members, rng, out)
            seen |= {key(m.config) for m in members}
            generation += 1
            if generation <= args.generations:
                members = next_generation(members, args.population, args.elite, rng, genes, seen)
    except BudgetSpent:
        stopped = "budget"
        print(f"budget of {args.budget_min} min spent: stopped; --resume continues", flush=True)
    except KeyboardInterrupt:
        stopped = "interrupted"
        print("interrupted: every finished problem is cached; --resume continues", flush=True)
    return {"stopped": stopped, "problems": problems, "fresh": len(scorer.fresh), "cached": scorer.cached}


def _score_generation(
    args: argparse.Namespace,
    scorer: Scorer,
    generation: int,
    members: list[Member],
    rng: random.Random,
    out: Path,
) -> None:
    began = time.monotonic()
    left_after = (args.generations - generation) * (args.population - args.elite) * len(scorer.problems)
    print(
        f"generation {generation} of {args.generations}: {len(members)} configurations, "
        f"{scorer.missing(members)} runs not cached; {scorer.eta(scorer.missing(members) + left_after)}",
        flush=True,
    )
    for member in members:
        scorer.score(member)
    append_generation(out, generation_row(generation, members, rng_state(rng), time.monotonic() - began))
    lineage = read_lineage(out)
    plot(lineage, out / PLOT, len(scorer.problems))
    best = ranked([Member.from_dict(m) for row in lineage for m in row["members"]])[0]
    mean = lineage[-1]["mean"]
    print(
        f"generation {generation} of {args.generations} done: best so far {best.passed}/{best.problems} "
        f"({best.id}, {best.seconds:.1f} s/problem), this generation's mean {mean}; {scorer.eta(left_after)}",
        flush=True,
    )


def finish(args: argparse.Namespace, fitness: Fitness, out: Path, result: dict[str, Any]) -> dict[str, Any]:
    lineage = read_lineage(out)
    everyone = [Member.from_dict(m) for row in lineage for m in row["members"]]
    summary: dict[str, Any] = {
        "model": fitness.model,
        "out": str(out),
        "generations": args.generations,
        "generations_done": len(lineage),
        "population": args.population,
        "elite": args.elite,
        "seed": args.seed,
        **result,
        "best": None,
        "hand_tuned": None,
        "profile": None,
    }
    if not everyone:
        return summary
    best = ranked(everyone)[0]
    hand = next((m for m in everyone if m.origin == "hand-tuned"), None)
    name = f"{model_stem(fitness.model)}-{args.name}"
    note = (
        f"bench.evolve winner: {best.passed}/{best.problems} HumanEval dev problems {args.problems}, "
        f"{len(lineage)} of {args.generations} generations x {args.population}, seed {args.seed}; "
        f"lineage in {_shown(out)}"
    )
    paths = write_winner(best, fitness.model, name, note, [args.profiles_dir, out])
    summary.update(best=best.to_dict(), hand_tuned=hand.to_dict() if hand else None, profile=str(paths[0]))
    return summary


def _shown(path: Path) -> str:
    """Relative to the repository where it lies inside it, so a profile's note reads the same anywhere."""
    root = RESULTS.parent.parent
    resolved = path.resolve()
    return str(resolved.relative_to(root)) if resolved.is_relative_to(root) else str(path)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.evolve", description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None, help="catalog id or .gguf path")
    parser.add_argument("--population", type=int, default=4)
    parser.add_argument("--generations", type=int, default=4, help="generations in all, the first included")
    parser.add_argument(
        "--elite", type=int, default=None, help="kept unchanged (default: half the population)"
    )
    parser.add_argument("--budget-min", type=float, default=None, help="stop starting runs after M minutes")
    parser.add_argument("--problems", default="0-81", help="dev problems: 0-81, 0-81:8, 3,5,9")
    parser.add_argument("--resume", action="store_true", help="continue the search in --out")
    parser.add_argument("--seed", type=int, default=0, help="the search's random choices")
    parser.add_argument("--out", type=Path, default=None, help="default bench/results/evolve-<model>-<date>")
    parser.add_argument(
        "--name", default=None, help="the winner's profile: <model>-NAME (default evolved-<date>)"
    )
    parser.add_argument("--profiles-dir", type=Path, default=PROFILES_DIR, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.elite = max(1, args.population // 2) if args.elite is None else args.elite
    if args.population < 2 or not 1 <= args.elite < args.population or args.generations < 1:
        parser.error("need --population >= 2, 1 <= --elite < --population, --generations >= 1")
    try:
        parse_problems(args.problems)
    except ValueError as exc:
        parser.error(str(exc))
    today = datetime.date.today().isoformat()
    args.name = args.name or f"evolved-{today}"
    args.out = args.out or RESULTS / f"{today}-evolve-{model_stem(args.model or 'default')}"
    return args


def default_fitness(args: argparse.Namespace) -> Fitness:
    if os.environ.get(FAKE_ENV):  # the CLI's own test: no model
        return ScriptedFitness()
    from bench.evolve.fitness import HumanEvalFitness

    return HumanEvalFitness(args.model)


def main(
    argv: list[str] | None = None, fitness_factory: Callable[[argparse.Namespace], Fitness] | None = None
) -> int:
    args = parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    params = {
        k: getattr(args, k) for k in ("model", "population", "elite", "problems", "seed", "generations")
    }
    check_run(args.out, params, resume=args.resume)
    started = time.monotonic()
    fitness = (fitness_factory or default_fitness)(args)
    try:
        result = search(args, fitness, args.out)
    finally:
        fitness.close()
    summary = finish(args, fitness, args.out, result)
    summary["seconds"] = round(time.monotonic() - started, 1)
    if summary["best"]:
        best = summary["best"]
        print(f"winner {best['id']}: {best['passed']}/{best['problems']} -> {summary['profile']}")
    print(json.dumps(summary), flush=True)
    return 130 if result["stopped"] == "interrupted" else 0


if __name__ == "__main__":
    sys.exit(main())
