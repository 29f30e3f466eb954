"""What bench.evolve scores a configuration with, one problem at a time.

- HumanEvalFitness: the IDE's crew (bench.humaneval.modes.solve_crew) on one HumanEval problem
  with the configuration's settings, graded by the problem's hidden check in the sandbox; the
  same engine and sampling as `python -m bench.humaneval` (temperature 0, seed 1234, repeat
  penalty 1.0). The model is loaded once.
- ScriptedFitness: no model; a fixed rule of the configuration's genes, for the tests and for
  `LOCALCREW_EVOLVE_FAKE_FITNESS=1` (the CLI's own test). Never used for a reported figure.
"""

from __future__ import annotations

from typing import Any, Protocol

from bench.evolve.space import CrewConfig, gene, gene_names

FAKE_ENV = "LOCALCREW_EVOLVE_FAKE_FITNESS"


class Fitness(Protocol):
    model: str

    def task_id(self, index: int) -> str: ...

    def __call__(self, config: CrewConfig, index: int) -> tuple[bool, float]: ...

    def close(self) -> None: ...


class HumanEvalFitness:
    def __init__(self, model: str | None, *, n_ctx: int = 4096, seed: int = 1234) -> None:
        import models.llama_libs  # noqa: F401, I001  (llama.cpp's libraries before numpy's)
        import offline  # noqa: F401, I001
        from bench.humaneval import load_problems
        from models.chat_engine import EngineSettings
        from models.engine import Engine
        from models.model_path import resolve_model

        self.problems = load_problems()
        self.seed = seed
        self.engine = Engine(resolve_model(model), EngineSettings(n_ctx=n_ctx, seed=seed))
        self.engine.load()
        self.model = self.engine.model_path.name

    def task_id(self, index: int) -> str:
        return str(self.problems[index]["task_id"])

    def __call__(self, config: CrewConfig, index: int) -> tuple[bool, float]:
        from bench.humaneval.execution import grade
        from bench.humaneval.modes import solve_crew
        from models.chat_engine import GenerationSettings

        problem = self.problems[index]
        gen = GenerationSettings(temperature=0.0, repeat_penalty=1.0, seed=self.seed)
        solution = solve_crew(
            self.engine, problem, gen, config.rounds, rules=config.switches(), crew=config.settings()
        )
        return grade(problem, solution.program).passed, solution.seconds

    def close(self) -> None:
        self.engine.close()


# The scripted optimum: every gene at the opposite of the hand-tuned crew's, four rounds.
def _target(name: str, default: Any) -> Any:
    if name == "rounds":
        return 4
    if name == "retry":
        return "fix"
    if name == "retry_temperature":
        return 0.3
    return not default


class ScriptedFitness:
    """Problem i passes when the configuration matches the scripted optimum on more than i genes
    of the first `depth`: fitness rises as genes are found. Seconds: rounds (the tie-breaker)."""

    def __init__(self, model: str = "scripted", depth: int = 8) -> None:
        self.model = model
        self.names = gene_names()[:depth]
        default = CrewConfig()
        self.target = {n: _target(n, gene(default, n)) for n in self.names}
        self.calls: list[tuple[str, int]] = []

    def task_id(self, index: int) -> str:
        return f"HumanEval/{index}"

    def matches(self, config: CrewConfig) -> int:
        return sum(gene(config, n) == want for n, want in self.target.items())

    def __call__(self, config: CrewConfig, index: int) -> tuple[bool, float]:
        from bench.evolve.space import key

        self.calls.append((key(config), index))
        return self.matches(config) > index % len(self.names), float(config.rounds)

    def close(self) -> None:
        pass
