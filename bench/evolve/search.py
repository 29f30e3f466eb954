"""The evolutionary step of bench.evolve: members, ranking, selection and the next generation.

Fitness is (problems passed, then the fewer seconds per problem). The best `elite` members pass
to the next generation unchanged; the rest are children: a parent picked by a tournament of two,
with probability CROSSOVER_RATE crossed (uniformly) with a second one, then mutated. A child whose
configuration was already scored is drawn again (up to NOVEL_TRIES times), so a generation's
evaluations go to configurations not yet seen. Every random choice comes from the one
random.Random the caller passes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bench.evolve.space import CrewConfig, crossover, key, mutate, short_id

CROSSOVER_RATE = 0.5
TOURNAMENT = 2
NOVEL_TRIES = 50


@dataclass
class Member:
    config: CrewConfig
    origin: str  # "hand-tuned", "mutant", "elite" or "child"
    parents: list[str] = field(default_factory=list)  # their ids
    passed: int = 0
    problems: int = 0
    seconds: float = 0.0  # per problem
    scored: bool = False

    @property
    def id(self) -> str:
        return short_id(self.config)

    def fitness(self) -> tuple[int, float]:
        return (self.passed, -self.seconds)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "origin": self.origin,
            "parents": self.parents,
            "config": self.config.to_dict(),
            "passed": self.passed,
            "problems": self.problems,
            "seconds_per_problem": round(self.seconds, 2),
            "scored": self.scored,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Member:
        return cls(
            config=CrewConfig.from_dict(data["config"]),
            origin=data["origin"],
            parents=list(data["parents"]),
            passed=int(data["passed"]),
            problems=int(data["problems"]),
            seconds=float(data["seconds_per_problem"]),
            scored=bool(data.get("scored", True)),
        )


def ranked(members: list[Member]) -> list[Member]:
    """Best first; ties (same passes and seconds) in a fixed order, by id."""
    return sorted(members, key=lambda m: (-m.passed, m.seconds, m.id))


def tournament(members: list[Member], rng: random.Random) -> Member:
    picks = [rng.choice(members) for _ in range(TOURNAMENT)]
    return ranked(picks)[0]


def initial_population(size: int, rng: random.Random, genes: list[str]) -> list[Member]:
    """The hand-tuned crew and size - 1 distinct mutants of it."""
    start = CrewConfig()
    members = [Member(start, "hand-tuned")]
    seen = {key(start)}
    while len(members) < size:
        config = _novel(lambda: mutate(start, rng, genes), seen)
        seen.add(key(config))
        members.append(Member(config, "mutant", [short_id(start)]))
    return members


def next_generation(
    scored: list[Member], size: int, elite: int, rng: random.Random, genes: list[str], seen: set[str]
) -> list[Member]:
    """The elite unchanged, then children; `seen`: keys of every configuration scored so far."""
    best = ranked(scored)
    members = [Member(m.config, "elite", [m.id]) for m in best[:elite]]
    taken = set(seen) | {key(m.config) for m in members}
    while len(members) < size:
        child, parents = _child(best, rng, genes, taken)
        taken.add(key(child))
        members.append(Member(child, "child", parents))
    return members


def _child(
    best: list[Member], rng: random.Random, genes: list[str], taken: set[str]
) -> tuple[CrewConfig, list[str]]:
    parents: list[Member] = []

    def draw() -> CrewConfig:
        first = tournament(best, rng)
        parents[:] = [first]
        config = first.config
        if len(best) > 1 and rng.random() < CROSSOVER_RATE:
            second = tournament([m for m in best if m is not first], rng)
            parents.append(second)
            config = crossover(config, second.config, rng, genes)
        return mutate(config, rng, genes)

    child = _novel(draw, taken)
    return child, [p.id for p in parents]


def _novel(draw: Any, taken: set[str]) -> CrewConfig:
    """A configuration not in `taken`, or after NOVEL_TRIES the last one drawn (the cache answers it)."""
    config = draw()
    for _ in range(NOVEL_TRIES):
        if key(config) not in taken:
            break
        config = draw()
    return config
