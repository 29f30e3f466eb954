"""The two ways of solving a HumanEval problem on the same engine and sampling settings.

- single: one chat completion of the function.
- crew: planner -> coder -> docstring examples run in the sandbox -> reviewer -> coder again, for
  up to `rounds` coder turns. The reviewer sees the code and the example results; a later coder
  turn sees the failures and the review. The crew keeps the coder's version that passed the most
  examples (the first such on a tie) and stops as soon as one passes them all.

The crew is the app's loop (agents/crew_runner.py) with direct engine calls instead of CrewAI
steps: the coder answers with a fenced code block rather than a write_file tool call, and the
checks are the problem's own examples. CrewRunner costs about 30 s a request on the bundled model
(README), too slow for 164 problems, and code inside a JSON tool-call string is one more way for a
tiny model to fail. Every prompt starts with the same system message holding the problem, so
llama.cpp finds it in its KV cache and evaluates only each step's new tokens.

Only `problem["prompt"]` and the examples parsed from it reach a prompt; `problem["test"]` never does.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

from bench.humaneval_code import docstring_examples, function_source, solution_from_reply
from bench.humaneval_exec import ExampleRun, run_examples
from models.engine import Engine, GenerationSettings


@dataclass(frozen=True)
class Budget:
    """Tokens each step may generate; a 7B coder gets more room (see for_model_size)."""

    single: int = 320  # the same cap as each coder turn: replies mostly stop well before it
    planner: int = 64
    coder: int = 320
    reviewer: int = 48

    @classmethod
    def for_model_size(cls, size_bytes: int) -> Budget:
        return cls(single=768, planner=160, coder=768, reviewer=160) if size_bytes > 2_000_000_000 else cls()


@dataclass
class Solution:
    program: str  # the whole program graded: prompt header + the chosen function
    rounds: int = 1  # coder turns used
    llm_calls: int = 0
    tokens: int = 0  # generated
    prompt_tokens: int = 0  # sent (llama.cpp evaluates fewer: the KV cache keeps shared prefixes)
    prompt_tokens_evaluated: int = 0
    examples_passed: int = 0
    examples_total: int = 0
    seconds: float = 0.0
    steps: list[dict[str, Any]] = field(default_factory=list)  # what each agent said, shortened


class _Model:
    """The engine with one sampling setting; counts calls and tokens."""

    def __init__(self, engine: Engine, gen: GenerationSettings, solution: Solution) -> None:
        self.engine, self.gen, self.solution = engine, gen, solution

    def ask(self, messages: list[dict[str, str]], max_tokens: int, step: str) -> str:
        text, stats = self.engine.chat(messages, replace(self.gen, max_tokens=max_tokens))
        self.solution.llm_calls += 1
        self.solution.tokens += stats.completion_tokens
        self.solution.prompt_tokens += stats.prompt_tokens
        self.solution.prompt_tokens_evaluated += stats.prompt_tokens_evaluated
        self.solution.steps.append({"step": step, "reply": text[:600]})
        return text


def _fenced(code: str) -> str:
    return f"```python\n{code.strip()}\n```"


SINGLE_TASK = (
    "Complete the following Python function. Reply with the whole function in one ```python code block."
)


def solve_single(
    engine: Engine, problem: dict[str, Any], gen: GenerationSettings, budget: Budget
) -> Solution:
    started = time.perf_counter()
    solution = Solution(program="")
    reply = _Model(engine, gen, solution).ask(
        [{"role": "user", "content": f"{SINGLE_TASK}\n\n{_fenced(problem['prompt'])}"}],
        budget.single,
        "single",
    )
    solution.program = solution_from_reply(problem["prompt"], problem["entry_point"], reply)
    solution.seconds = time.perf_counter() - started
    return solution


def _crew_system(problem: dict[str, Any]) -> str:
    return (
        "A crew of three writes one Python function: the planner plans, the coder writes the code,"
        " the reviewer reads the results of running the docstring examples and says what to fix.\n\n"
        f"The function to write:\n{_fenced(problem['prompt'])}"
    )


def _planner_task(entry_point: str) -> str:
    return f"Planner: in 2 or 3 short numbered steps, say how {entry_point} computes its result. No code."


def _coder_task(entry_point: str, plan: str, checks: str, review: str) -> str:
    # A later turn gets the failures and the review but not its own last code: a small model shown
    # its code copies it back unchanged, which wastes the turn.
    parts = [f"Plan:\n{plan.strip()}"]
    if checks:
        parts.append(f"Your last version failed. Running the docstring examples gave:\n{checks}")
        parts.append(f"Reviewer: {review.strip()}")
        parts.append(
            f"Coder: write a new version of the whole function {entry_point} in one ```python code block."
        )
    else:
        parts.append(f"Coder: write the whole function {entry_point} in one ```python code block.")
    return "\n\n".join(parts)


def _reviewer_task(code: str, checks: str) -> str:
    return (
        f"Code:\n{_fenced(code)}\n\nRunning the docstring examples gave:\n{checks}\n\n"
        "Reviewer: in one or two sentences, say what is wrong in the code and how to fix it."
    )


def solve_crew(
    engine: Engine, problem: dict[str, Any], gen: GenerationSettings, budget: Budget, rounds: int
) -> Solution:
    started = time.perf_counter()
    prompt, entry_point = problem["prompt"], problem["entry_point"]
    examples = docstring_examples(prompt, entry_point)
    solution = Solution(program="", rounds=0, examples_total=max(len(examples), 1))
    model = _Model(engine, gen, solution)
    system = {"role": "system", "content": _crew_system(problem)}

    plan = model.ask(
        [system, {"role": "user", "content": _planner_task(entry_point)}], budget.planner, "planner"
    )
    best: tuple[int, str] | None = None
    checks, review = "", ""
    for round_number in range(1, max(rounds, 1) + 1):
        solution.rounds = round_number
        task = _coder_task(entry_point, plan, checks, review)
        reply = model.ask([system, {"role": "user", "content": task}], budget.coder, f"coder {round_number}")
        program = solution_from_reply(prompt, entry_point, reply)
        result: ExampleRun = run_examples(program, examples, entry_point)
        solution.steps.append({"step": f"checks {round_number}", "reply": result.text()[:600]})
        if best is None or result.passed > best[0]:
            best = (result.passed, program)
        if result.all_passed or round_number == rounds:
            break
        checks = result.text()
        review = model.ask(
            [
                system,
                {"role": "user", "content": _reviewer_task(function_source(program, entry_point), checks)},
            ],
            budget.reviewer,
            f"reviewer {round_number}",
        )
    assert best is not None
    solution.examples_passed, solution.program = best
    solution.seconds = time.perf_counter() - started
    return solution
