"""The two ways of solving a HumanEval problem on the same engine and sampling settings.

- single: one chat completion of the function.
- crew: the IDE's own crew (agents/run/runner.py, through CrewAI) on a workspace holding the
  problem's prompt as solution.py, asked to complete the function. Its checks are the product's:
  the examples in the docstring (or the reviewer's asserts where there are none), run in the
  sandbox every round; the best round's file is kept. The graded program is solution.py as the
  crew left it, read the way single's reply is read.

Only `problem["prompt"]` reaches the workspace; `problem["test"]` never does.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.humaneval.code import docstring_examples, solution_from_reply
from bench.humaneval.execution import run_examples
from models.chat_engine import GenerationSettings
from models.engine import Engine
from models.reply_budget import reply_budget_for
from models.reply_trace import ReplyTrace

if TYPE_CHECKING:
    from agents.rules.registry import RuleSwitches
    from agents.run.runner import CrewSettings


@dataclass(frozen=True)
class Budget:
    """Tokens each step may generate; a model that codes gets room for whole functions (for_model)."""

    single: int = 320  # the same cap as each coder turn
    planner: int = 64
    coder: int = 320
    reviewer: int = 48

    @classmethod
    def for_model(cls, info: Any, n_ctx: int) -> Budget:
        replies = reply_budget_for(info, n_ctx)
        if replies.answer <= cls.single:
            return cls()
        return cls(single=replies.answer, planner=160, coder=replies.answer, reviewer=160)


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


# A closing fence: an opening one carries its language (```python) as the prompts ask, so this
# cannot cut a reply before its code. llama.cpp drops the stop text; code_of_reply reads unclosed blocks.
CODE_BLOCK_END = "\n```\n"


class _Model:
    """The engine with one sampling setting; counts calls and tokens."""

    def __init__(self, engine: Engine, gen: GenerationSettings, solution: Solution) -> None:
        self.engine, self.gen, self.solution = engine, gen, solution

    def ask(
        self,
        messages: list[dict[str, str]],
        max_tokens: int,
        step: str,
        *,
        trace: ReplyTrace | None = None,
        continue_from: list[int] | None = None,
        code: bool = False,
    ) -> str:
        """The reply's text; a continued reply comes back whole, its given tokens included.

        A `code` reply stops at the end of its first code block: the prose a small model adds
        after it costs about a quarter of its tokens and never reaches the checks.
        """
        stop = (*self.gen.stop, CODE_BLOCK_END) if code else self.gen.stop
        gen = replace(self.gen, max_tokens=max_tokens, stop=stop)
        given = continue_from or []
        text, stats = self.engine.chat(messages, gen, trace=trace, continue_from=given)
        text = (self.engine.detokenize(given) if given else "") + text
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


def single_prompt(prompt: str) -> str:
    return f"{SINGLE_TASK}\n\n{_fenced(prompt)}"


def solve_single(
    engine: Engine, problem: dict[str, Any], gen: GenerationSettings, budget: Budget
) -> Solution:
    started = time.perf_counter()
    solution = Solution(program="")
    reply = _Model(engine, gen, solution).ask(
        [{"role": "user", "content": single_prompt(problem["prompt"])}], budget.single, "single", code=True
    )
    solution.program = solution_from_reply(problem["prompt"], problem["entry_point"], reply)
    solution.seconds = time.perf_counter() - started
    return solution


SOLUTION_FILE = "solution.py"


def crew_request(entry_point: str) -> str:
    return (
        f"Complete the function {entry_point} in {SOLUTION_FILE} so that it does what its docstring "
        "says. Keep its signature and the imports."
    )


def solve_crew(
    engine: Engine,
    problem: dict[str, Any],
    gen: GenerationSettings,
    rounds: int = 3,
    *,
    rules: RuleSwitches | None = None,
    crew: CrewSettings | None = None,
    reviewer: Engine | None = None,
) -> Solution:
    """The product's crew on the problem; it sizes its own replies from the model. `crew`: the
    crew's other settings (a profile's retry and retry temperature); `rounds`, `rules` and `gen`'s
    temperature and seed are set from the arguments; `reviewer`: a second model for the reviewer's
    turns (None: the coder's model reviews)."""
    from agents.crew_factory import build_crew
    from agents.events import AgentFinished, CheckRun, EventBus
    from agents.rules.registry import RuleSwitches
    from agents.run.runner import CrewSettings

    started = time.perf_counter()
    entry = problem["entry_point"]
    with tempfile.TemporaryDirectory(prefix="humaneval-crew-") as folder:
        workspace = Path(folder)
        # The prompt ends after the docstring: a body makes it a module the crew can run and edit.
        # `pass`, not `...`: the 0.5B wrote `... + [numbers[-1]]` into its answer.
        (workspace / SOLUTION_FILE).write_text(problem["prompt"].rstrip("\n") + "\n    pass\n")
        bus = EventBus()
        settings = replace(
            crew or CrewSettings(),
            rounds=rounds,
            temperature=gen.temperature,
            seed=gen.seed,
            rules=rules or RuleSwitches(),
        )
        summary = build_crew(engine, workspace, bus, settings, reviewer_engine=reviewer).run(
            crew_request(entry)
        )
        code = (workspace / SOLUTION_FILE).read_text(encoding="utf-8", errors="replace")
    solution = Solution(
        program=solution_from_reply(problem["prompt"], entry, f"```python\n{code}\n```"),
        rounds=summary.rounds_used,
        llm_calls=summary.llm_calls,
        tokens=summary.tokens_generated,
        prompt_tokens=summary.prompt_tokens_sent,
        prompt_tokens_evaluated=summary.prompt_tokens_evaluated,
        seconds=time.perf_counter() - started,
    )
    for event in bus.history:
        if isinstance(event, AgentFinished):
            solution.steps.append({"step": f"{event.agent} {event.round}", "reply": event.output[:600]})
        elif isinstance(event, CheckRun):
            solution.steps.append({"step": f"checks: {event.command}", "reply": event.stdout_tail[-600:]})
    examples = docstring_examples(problem["prompt"], entry)
    if examples:
        run = run_examples(solution.program, examples, entry)
        solution.examples_passed, solution.examples_total = run.passed, run.total
    return solution
