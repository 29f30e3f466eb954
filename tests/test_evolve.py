"""bench.evolve on a scripted fitness (no model): selection, mutation, crossover, the cache, resume
after a stop, the winner as a profile, and the CLI's JSON line."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from agents.crew_profile import CrewProfile, load_profile, save_profile
from agents.rules.registry import RuleSwitches, rule
from agents.run.runner import CrewSettings
from bench.evolve import cli as evolve
from bench.evolve.fitness import FAKE_ENV, ScriptedFitness
from bench.evolve.report import lineage_markdown
from bench.evolve.search import Member, initial_population, next_generation, ranked, tournament
from bench.evolve.space import (
    INERT_ON_HUMANEVAL,
    ROUNDS,
    TEMPERATURES,
    CrewConfig,
    crossover,
    gene,
    gene_names,
    key,
    mutate,
)
from bench.evolve.store import read_lineage

ROOT = Path(__file__).resolve().parent.parent
GENES = gene_names()


def scored(config: CrewConfig, passed: int, seconds: float) -> Member:
    return Member(config, "child", passed=passed, problems=10, seconds=seconds, scored=True)


# ---------- the space ----------
def test_mutation_changes_only_searched_genes_within_their_ranges() -> None:
    rng = random.Random(1)
    start = CrewConfig()
    for _ in range(200):
        child = mutate(start, rng, GENES)
        changed = [g for g in GENES if gene(child, g) != gene(start, g)]
        assert changed, "a mutation always changes a gene"
        assert child.rounds in ROUNDS and child.retry in ("fresh", "fix")
        assert child.retry_temperature in TEMPERATURES
        assert not (child.disabled | child.enabled) & INERT_ON_HUMANEVAL.keys()


def test_mutation_is_seeded() -> None:
    a = [mutate(CrewConfig(), random.Random(7), GENES) for _ in range(5)]
    b = [mutate(CrewConfig(), random.Random(7), GENES) for _ in range(5)]
    assert a == b


def test_uniform_crossover_takes_each_gene_from_one_parent() -> None:
    a = CrewConfig()
    b = CrewConfig(rounds=1, retry="fix", retry_temperature=0.3)
    for name in GENES[3:]:
        from bench.evolve.space import with_gene

        b = with_gene(b, name, not gene(a, name))
    rng = random.Random(3)
    children = [crossover(a, b, rng, GENES) for _ in range(20)]
    for child in children:
        assert all(gene(child, g) in (gene(a, g), gene(b, g)) for g in GENES)
    mixed = [c for c in children if c != a and c != b]
    assert mixed, "uniform crossover mixes the parents"


def test_genes_a_run_never_reads_share_a_key() -> None:
    one = CrewConfig(rounds=1)
    assert key(one) == key(replace(one, retry="fix", retry_temperature=0.3))
    no_sampling = CrewConfig(disabled=frozenset({"sampled_retries"}))
    assert key(no_sampling) == key(replace(no_sampling, retry_temperature=0.9))
    assert key(CrewConfig()) != key(CrewConfig(retry_temperature=0.9))


def test_config_builds_crew_settings() -> None:
    config = CrewConfig(rounds=2, retry="fix", retry_temperature=0.4, disabled=frozenset({"plain_retry"}))
    settings = config.settings()
    assert (settings.rounds, settings.retry, settings.retry_temperature) == (2, "fix", 0.4)
    assert not settings.rules.on(rule("plain_retry")) and settings.rules.on(rule("keep_best"))
    assert CrewConfig.from_dict(json.loads(json.dumps(config.to_dict()))) == config


# ---------- selection ----------
def test_ranking_is_by_passes_then_seconds() -> None:
    slow, fast, best = (
        scored(CrewConfig(rounds=4), 5, 30.0),
        scored(CrewConfig(rounds=2), 5, 10.0),
        scored(CrewConfig(rounds=1), 6, 99.0),
    )
    assert ranked([slow, fast, best]) == [best, fast, slow]


def test_tournament_returns_the_better_of_its_draws() -> None:
    weak, strong = scored(CrewConfig(rounds=1), 1, 1.0), scored(CrewConfig(rounds=2), 9, 1.0)
    rng = random.Random(0)
    winners = [tournament([weak, strong], rng) for _ in range(100)]
    assert winners.count(strong) > 60  # it loses only when both draws are the weak one


def test_next_generation_keeps_the_elite_and_breeds_unseen_children() -> None:
    rng = random.Random(5)
    first = initial_population(4, rng, GENES)
    assert first[0].config == CrewConfig() and first[0].origin == "hand-tuned"
    assert len({key(m.config) for m in first}) == 4
    for score, member in zip((3, 7, 5, 1), first, strict=True):
        member.passed, member.problems, member.scored = score, 10, True
    seen = {key(m.config) for m in first}
    nxt = next_generation(first, 4, 2, rng, GENES, seen)
    assert [m.config for m in nxt[:2]] == [first[1].config, first[2].config]
    assert [m.origin for m in nxt] == ["elite", "elite", "child", "child"]
    for child in nxt[2:]:
        assert key(child.config) not in seen
        assert child.parents and set(child.parents) <= {m.id for m in first}


# ---------- the search: cache, resume, budget ----------
class Counting(ScriptedFitness):
    """The scripted fitness; raises KeyboardInterrupt at call number `stop_at` (a Ctrl-C)."""

    def __init__(self, stop_at: int | None = None) -> None:
        super().__init__()
        self.stop_at = stop_at

    def __call__(self, config: CrewConfig, index: int) -> tuple[bool, float]:
        if self.stop_at is not None and len(self.calls) == self.stop_at:
            raise KeyboardInterrupt
        return super().__call__(config, index)


def run(tmp: Path, fitness: Counting, *extra: str, capsys: Any = None) -> tuple[int, dict[str, Any]]:
    argv = ["--out", str(tmp / "out"), "--profiles-dir", str(tmp / "profiles"), "--problems", "0-5"]
    code = evolve.main([*argv, "--seed", "3", *extra], fitness_factory=lambda args: fitness)
    last = capsys.readouterr().out.strip().splitlines()[-1]
    return code, json.loads(last)


def test_every_run_is_cached_and_a_generation_reruns_only_new_configurations(
    tmp_path: Path, capsys: Any
) -> None:
    fitness = Counting()
    code, summary = run(tmp_path, fitness, "--generations", "3", capsys=capsys)
    assert code == 0 and summary["generations_done"] == 3
    assert len(fitness.calls) == len(set(fitness.calls)), "no (configuration, problem) ran twice"
    # 4 configurations in generation 1, then 2 new children per generation (2 are elite)
    assert len(fitness.calls) == (4 + 2 + 2) * 6 == summary["fresh"]
    lineage = read_lineage(tmp_path / "out")
    assert [row["generation"] for row in lineage] == [1, 2, 3]
    assert all(len(row["members"]) == 4 for row in lineage)
    assert lineage[1]["best"] >= lineage[0]["best"]  # elitism: the best never gets worse
    assert (tmp_path / "out" / "fitness.png").stat().st_size > 0
    table = lineage_markdown(lineage).splitlines()
    assert len(table) == 2 + 3 * 4 and "the hand-tuned crew" in table[2]


def test_an_interrupted_search_resumes_to_the_same_lineage(tmp_path: Path, capsys: Any) -> None:
    whole = Counting()
    run(tmp_path / "whole", whole, "--generations", "3", capsys=capsys)
    code, summary = run(tmp_path / "cut", Counting(stop_at=29), "--generations", "3", capsys=capsys)
    assert code == 130 and summary["stopped"] == "interrupted"
    cache = (tmp_path / "cut" / "out" / "cache.jsonl").read_text().splitlines()
    assert len(cache) == 29  # every finished problem kept
    again = Counting()
    code, summary = run(tmp_path / "cut", again, "--generations", "3", "--resume", capsys=capsys)
    assert code == 0 and summary["stopped"] is None
    assert len(again.calls) == len(whole.calls) - 29, "only what the cache lacked ran"

    def members(root: Path) -> list[Any]:
        return [[(m["id"], m["parents"], m["passed"]) for m in row["members"]] for row in read_lineage(root)]

    assert members(tmp_path / "cut" / "out") == members(tmp_path / "whole" / "out")


def test_more_generations_continue_from_the_lineage(tmp_path: Path, capsys: Any) -> None:
    run(tmp_path, Counting(), "--generations", "2", capsys=capsys)
    more = Counting()
    code, summary = run(tmp_path, more, "--generations", "3", "--resume", capsys=capsys)
    assert summary["generations_done"] == 3 and len(more.calls) == 2 * 6


def test_a_spent_budget_stops_before_the_next_run_and_a_rerun_needs_resume(
    tmp_path: Path, capsys: Any
) -> None:
    code, summary = run(tmp_path, Counting(), "--budget-min", "1e-9", capsys=capsys)
    assert code == 0 and summary["stopped"] == "budget" and summary["fresh"] <= 1
    run(tmp_path, Counting(), "--generations", "1", capsys=capsys)  # no lineage yet: starts afresh
    with pytest.raises(SystemExit, match="--resume"):
        evolve.main(
            ["--out", str(tmp_path / "out"), "--problems", "0-5"], fitness_factory=lambda a: Counting()
        )


def test_problems_are_dev_problems_only() -> None:
    assert evolve.parse_problems("0-81:9") == [0, 9, 18, 27, 36, 45, 54, 63, 72, 81]
    assert evolve.parse_problems("3,5,7-8") == [3, 5, 7, 8]
    with pytest.raises(ValueError, match="dev problems"):
        evolve.parse_problems("80-90")


# ---------- profiles ----------
def test_a_profile_round_trips_and_builds_the_same_crew_settings(tmp_path: Path) -> None:
    settings = CrewSettings(
        rounds=2,
        retry="fix",
        retry_temperature=0.4,
        rules=RuleSwitches(frozenset({"plain_retry", "second_opinion"}), frozenset({"plan_retries"})),
    )
    profile = CrewProfile.from_settings("m-test", settings, model="m.gguf", note="a test")
    path = save_profile(profile, tmp_path)
    loaded = load_profile("m-test", tmp_path)
    assert loaded == profile == load_profile(str(path))
    assert loaded.settings() == settings
    base = CrewSettings(seed=7, context_chars=900)
    assert loaded.settings(base) == replace(settings, seed=7, context_chars=900)


def test_a_profile_refuses_unknown_rules_fields_and_names(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no such rule"):
        CrewProfile("x", disabled=("no_such_rule",))
    with pytest.raises(ValueError, match="unknown profile fields"):
        CrewProfile.from_dict({"name": "x", "candidates_n": 3})
    with pytest.raises(ValueError, match="no profile"):
        load_profile("missing", tmp_path)


def test_the_winner_is_a_profile_of_the_best_configuration(tmp_path: Path, capsys: Any) -> None:
    code, summary = run(tmp_path, Counting(), "--generations", "2", "--name", "t", capsys=capsys)
    profile = load_profile(summary["profile"])
    best = CrewConfig.from_dict(summary["best"]["config"])
    assert profile.name == "scripted-t" and profile.settings() == best.settings()
    assert load_profile(str(tmp_path / "out" / "scripted-t.json")) == profile


def test_profile_flag_on_bench_humaneval(tmp_path: Path) -> None:
    from bench.humaneval import parse_args

    profile = CrewProfile("p", rounds=2, retry="fix", retry_temperature=0.5, disabled=("plain_retry",))
    path = str(save_profile(profile, tmp_path))
    args = parse_args(["--profile", path, "--without", "keep_best"])
    assert args.rounds == 2 and args.crew.retry == "fix" and args.crew.retry_temperature == 0.5
    assert args.rules.disabled == {"plain_retry", "keep_best"}
    assert parse_args(["--profile", path, "--rounds", "4"]).rounds == 4
    assert parse_args([]).crew is None


def test_profile_flag_on_bench_sealed_reaches_the_crew(tmp_path: Path, monkeypatch: Any) -> None:
    import bench.sealed as sealed

    profile = CrewProfile("p", rounds=2, retry="fix", retry_temperature=0.5, disabled=("plain_retry",))
    path = str(save_profile(profile, tmp_path))
    args, rules = sealed.parse_args(["--profile", path, "--without", "keep_best"])
    assert args.rounds == 2 and args.crew.retry == "fix" and rules.disabled == {"plain_retry", "keep_best"}
    assert sealed.parse_args([])[0].crew is None
    built: list[Any] = []

    def no_crew(engine: Any, workspace: Path, bus: Any, settings: Any) -> Any:
        built.append(settings)
        raise RuntimeError("stop here")

    monkeypatch.setattr(sealed, "build_crew", no_crew)
    with pytest.raises(RuntimeError, match="stop here"):
        sealed.run_crew_turns(None, sealed.load_set("dev")[0], 3, rules=rules, crew=args.crew)  # type: ignore[arg-type]
    assert (built[0].retry, built[0].retry_temperature, built[0].rounds) == ("fix", 0.5, 3)
    assert built[0].rules.disabled == {"plain_retry", "keep_best"}


# ---------- the CLI ----------
def test_cli_with_the_fake_fitness_ends_with_one_json_line(tmp_path: Path) -> None:
    env = {**os.environ, FAKE_ENV: "1"}
    argv = ["--population", "3", "--generations", "2", "--problems", "0-3", "--out", str(tmp_path / "o")]
    argv += ["--profiles-dir", str(tmp_path / "p")]
    done = subprocess.run(
        [sys.executable, "-m", "bench.evolve", *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert "generation 1 of 2" in lines[0]
    summary = json.loads(lines[-1])
    assert summary["generations_done"] == 2 and summary["best"]["problems"] == 4
    assert Path(summary["profile"]).is_file()
