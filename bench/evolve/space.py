"""The search space of bench.evolve: a crew configuration as a typed vector, and its operators.

Genes: `rounds` (1-4), `retry` ("fresh" or "fix"), `retry_temperature` (the coder's on a sampled
retry, 0.3-1.0 in steps of 0.1) and one on/off switch per rule of agents/rules/registry.py (the
plain try is the `plain_retry` rule). Rules that cannot act on a HumanEval problem stay at their
defaults and are not searched: flipping one would cost a whole evaluation for the same runs.

A configuration's key is its canonical form: genes the run never reads are set to their defaults
(with one round no retry happens, so the retry genes are moot; with `sampled_retries` off no retry
is sampled, so its temperature is moot). Two configurations with one key give the same runs, so
the cache (bench/evolve/store.py) answers both.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field, replace
from typing import Any

from agents.rules.registry import RULES, RuleSwitches, rule
from agents.rules.rounds.round_policy import RETRY_TEMPERATURE
from agents.run.runner import CrewSettings

ROUNDS = (1, 2, 3, 4)
RETRIES = ("fresh", "fix")
TEMPERATURES = tuple(round(0.3 + 0.1 * i, 1) for i in range(8))  # 0.3 ... 1.0
DEFAULT_RETRY_TEMPERATURE = round(RETRY_TEMPERATURE, 1)

# Why each is inert on a HumanEval problem: one file the request names, a fresh workspace holding
# only that file, no earlier run, no tests asked for or present.
INERT_ON_HUMANEVAL = {
    "follow_up_memory": "no earlier run",
    "nameless_block_follow_up": "no earlier run",
    "small_project_files": "the request names solution.py, so no file list is shown instead",
    "data_files_kept": "no data file",
    "user_tests_kept": "no test file",
    "tests_before_run": "no tests in the workspace",
    "asked_tests_stop": "no tests asked for",
    "checked_approval": "no tests in the workspace",
    "broken_files_shown": "one file in the workspace: no other file to break",
    "work_files": "the named solution.py is the target and imports no project module",
    "nameless_block_owner": "one file expected: a block without a name is already its",
}
# Rules read only from round 2 on: moot with one round.
RETRY_RULES = ("plan_retries", "plain_retry", "sampled_retries", "fresh_after_repeat")
SCALAR_GENES = ("rounds", "retry", "retry_temperature")


def searched_rules() -> list[str]:
    return [r.name for r in RULES if r.name not in INERT_ON_HUMANEVAL]


def gene_names(rules: list[str] | None = None) -> list[str]:
    return [*SCALAR_GENES, *(searched_rules() if rules is None else rules)]


@dataclass(frozen=True)
class CrewConfig:
    """One point of the space; the default is the hand-tuned crew of CrewSettings()."""

    rounds: int = 3
    retry: str = "fresh"
    retry_temperature: float = DEFAULT_RETRY_TEMPERATURE
    disabled: frozenset[str] = field(default_factory=frozenset)  # rules on by default, off here
    enabled: frozenset[str] = field(default_factory=frozenset)  # rules off by default, on here

    def __post_init__(self) -> None:
        if self.rounds not in ROUNDS or self.retry not in RETRIES:
            raise ValueError(f"bad configuration: rounds {self.rounds}, retry {self.retry!r}")
        if not 0.0 <= self.retry_temperature <= 2.0:
            raise ValueError(f"bad retry temperature {self.retry_temperature}")
        RuleSwitches(self.disabled, self.enabled)  # refuses unknown rule names

    def switches(self) -> RuleSwitches:
        return RuleSwitches(self.disabled, self.enabled)

    def on(self, name: str) -> bool:
        return self.switches().on(rule(name))

    def settings(self, base: CrewSettings | None = None) -> CrewSettings:
        return replace(
            base or CrewSettings(),
            rounds=self.rounds,
            retry=self.retry,
            retry_temperature=self.retry_temperature,
            rules=self.switches(),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "retry": self.retry,
            "retry_temperature": self.retry_temperature,
            "without": sorted(self.disabled),
            "with": sorted(self.enabled),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CrewConfig:
        return cls(
            rounds=int(data["rounds"]),
            retry=str(data["retry"]),
            retry_temperature=float(data["retry_temperature"]),
            disabled=frozenset(data.get("without", ())),
            enabled=frozenset(data.get("with", ())),
        )


def with_rule(config: CrewConfig, name: str, on: bool) -> CrewConfig:
    default = rule(name).default
    disabled = config.disabled - {name} | ({name} if default and not on else set())
    enabled = config.enabled - {name} | ({name} if on and not default else set())
    return replace(config, disabled=frozenset(disabled), enabled=frozenset(enabled))


def gene(config: CrewConfig, name: str) -> Any:
    return getattr(config, name) if name in SCALAR_GENES else config.on(name)


def with_gene(config: CrewConfig, name: str, value: Any) -> CrewConfig:
    if name in SCALAR_GENES:
        return replace(config, **{name: value})
    return with_rule(config, name, bool(value))


def canonical(config: CrewConfig) -> CrewConfig:
    """The same configuration with the genes its runs never read set to their defaults."""
    if config.rounds == 1:
        config = replace(config, retry="fresh", retry_temperature=DEFAULT_RETRY_TEMPERATURE)
        for name in RETRY_RULES:
            config = with_rule(config, name, rule(name).default)
    if not config.on("sampled_retries"):
        config = replace(config, retry_temperature=DEFAULT_RETRY_TEMPERATURE)
    return config


def key(config: CrewConfig) -> str:
    return json.dumps(canonical(config).to_dict(), sort_keys=True)


def short_id(config: CrewConfig) -> str:
    return hashlib.sha1(key(config).encode()).hexdigest()[:8]


def _other_value(name: str, value: Any, rng: random.Random) -> Any:
    if name == "rounds":
        return rng.choice([r for r in ROUNDS if r != value])
    if name == "retry":
        return "fix" if value == "fresh" else "fresh"
    if name == "retry_temperature":
        return rng.choice([t for t in TEMPERATURES if t != value])
    return not value


def mutate(config: CrewConfig, rng: random.Random, genes: list[str]) -> CrewConfig:
    """Each gene changes with probability 1/len(genes); at least one always does."""
    chosen = [name for name in genes if rng.random() < 1.0 / len(genes)]
    if not chosen:
        chosen = [rng.choice(genes)]
    for name in chosen:
        config = with_gene(config, name, _other_value(name, gene(config, name), rng))
    return config


def crossover(a: CrewConfig, b: CrewConfig, rng: random.Random, genes: list[str]) -> CrewConfig:
    """Uniform: each gene from either parent with even odds."""
    child = a
    for name in genes:
        if rng.random() < 0.5:
            child = with_gene(child, name, gene(b, name))
    return child
