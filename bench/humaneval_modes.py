"""The two ways of solving a HumanEval problem on the same engine and sampling settings.

- single: one chat completion of the function.
- crew: the coder first answers exactly the prompt `single` gets; the problem's docstring examples
  run in the sandbox. Only when they fail does the crew go on, round by round:
  2. second thoughts: at the steps of its first version where the coder was least sure (the
     smallest margin between its two likeliest tokens, inside the function), it takes its
     runner-up token instead and goes on greedily; each such version is checked (`branches` of
     them, still temperature 0: a deterministic search, no sampling);
  3. the planner writes steps and the coder writes the function from them;
  4. the reviewer reads the coder's first version and its failed examples and says what to fix;
     the coder answers single's prompt (which that version answered) plus those failures and the
     review;
  5. the coder answers single's prompt plus the failures alone;
  6. second thoughts again, this time at the least sure steps of the plan round's version.
  The crew keeps the version that passed the most examples (the earliest on a tie) and stops as
  soon as one passes them all, so where the examples are right it cannot do worse than `single`.

Why this order (measured on problems 0-81, SmolLM2-135M, see README): a crew that began with the
planner lost problems that the bare prompt solves, because a small model's plan pulls the coder
off it. Each follow-up prompt then solved a different problem the first attempt failed; showing
the coder its own failed code ("fix this") solved none, as it copies the code back. A 135M model
is often nearly right: its first version's runner-up tokens at its least sure steps solved more
dev problems than the follow-up prompts did, at about a second each, so they come first. Round
6 branches the one version written from a different prompt (the crew's, with a plan), so its close
calls are not round 2's again: on the 59 dev problems that failed rounds 1-5, it solved one (11);
second thoughts of the reviewed and failures-only versions solved none (three versions passed
the examples, all wrong). It comes last, so it cannot take a problem an earlier round solves.

The crew is the app's loop (agents/crew_runner.py) with direct engine calls instead of CrewAI
steps: the coder answers with a fenced code block rather than a write_file tool call, and the
checks are the problem's own examples. CrewRunner costs about 30 s a request on the bundled model
(README), too slow for 164 problems, and code inside a JSON tool-call string is one more way for a
tiny model to fail.

Only `problem["prompt"]` and the examples parsed from it reach a prompt; `problem["test"]` never does.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

from bench.humaneval_code import docstring_examples, function_source, solution_from_reply
from bench.humaneval_exec import ExampleRun, run_examples
from models.engine import Engine, GenerationSettings
from models.reply_budget import reply_budget_for
from models.reply_trace import ReplyTrace


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


# The crew's rounds in order; `--rounds N` runs the first N (while the examples still fail).
ROUNDS = ("direct", "second_thoughts", "from_plan", "reviewed", "failures_only", "plan_second_thoughts")


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


def _crew_system(problem: dict[str, Any]) -> str:
    return (
        "A crew of three writes one Python function: the planner plans, the coder writes the code,"
        " the reviewer reads the results of running the docstring examples and says what to fix.\n\n"
        f"The function to write:\n{_fenced(problem['prompt'])}"
    )


def _planner_task(entry_point: str) -> str:
    return f"Planner: in 2 or 3 short numbered steps, say how {entry_point} computes its result. No code."


def _coder_from_plan_task(entry_point: str, plan: str) -> str:
    task = f"Coder: write the whole function {entry_point} in one ```python code block."
    return f"Plan:\n{plan.strip()}\n\n{task}"


def _reviewer_task(code: str, checks: str) -> str:
    return (
        f"Code:\n{_fenced(code)}\n\nRunning the docstring examples gave:\n{checks}\n\n"
        "Reviewer: in one or two sentences, say what is wrong in the code and how to fix it."
    )


def _single_with_feedback(prompt: str, checks: str, review: str = "") -> str:
    # Single's prompt first, so the coder stays on the problem; the failed code itself is left out:
    # a small model shown its code copies it back unchanged.
    feedback = f"A first version failed. Running the docstring examples gave:\n{checks}"
    if review:
        feedback += f"\nReviewer: {review.strip()}"
    return f"{single_prompt(prompt)}\n\n{feedback}\n\nWrite a corrected version."


class _CrewRun:
    """One problem's crew: each round is one coder attempt, checked against the examples."""

    def __init__(self, engine: Engine, problem: dict[str, Any], gen: GenerationSettings) -> None:
        self.problem = problem
        self.examples = docstring_examples(problem["prompt"], problem["entry_point"])
        self.solution = Solution(program="", rounds=0, examples_total=max(len(self.examples), 1))
        self.model = _Model(engine, gen, self.solution)
        self.system = {"role": "system", "content": _crew_system(problem)}
        self.first: tuple[str, ExampleRun] | None = None  # round 1's program and its run
        self.best: tuple[str, ExampleRun] | None = None  # the program that passed most examples, its run
        self.checked: set[str] = set()
        self.first_trace = ReplyTrace()  # the coder's choices in round 1, to branch off in round 2
        self.plan_task = ""  # the coder's task in the plan round, and its choices, for round 6
        self.plan_trace = ReplyTrace()

    def ask(self, task: str, max_tokens: int, step: str, crew_system: bool = True, **options: Any) -> str:
        messages = [self.system] if crew_system else []
        return self.model.ask(messages + [{"role": "user", "content": task}], max_tokens, step, **options)

    def code(self, task: str, max_tokens: int, step: str, crew_system: bool = True, **branching: Any) -> str:
        """The coder's turn: a reply that ends with its code block."""
        return self.ask(task, max_tokens, step, crew_system, code=True, **branching)

    def attempt(self, round_number: int, reply: str, label: str = "") -> bool:
        """Check the coder's reply; True when it passes every example.

        A version already checked (branches often end in the same code) is not run again.
        """
        prompt, entry_point = self.problem["prompt"], self.problem["entry_point"]
        self.solution.rounds = round_number
        program = solution_from_reply(prompt, entry_point, reply)
        if program in self.checked:
            self.solution.steps.append({"step": f"checks {label or round_number}", "reply": "same as before"})
            return False
        self.checked.add(program)
        result = run_examples(program, self.examples, entry_point)
        self.solution.steps.append({"step": f"checks {label or round_number}", "reply": result.text()[:600]})
        if self.first is None:
            self.first = (program, result)
        if self.best is None or result.passed > self.best[1].passed:
            self.best = (program, result)
        return result.all_passed

    def code_and_checks(self, version: tuple[str, ExampleRun] | None) -> tuple[str, str]:
        assert version is not None
        program, result = version
        return function_source(program, self.problem["entry_point"]), result.text()


def least_sure_steps(engine: Engine, trace: ReplyTrace, entry_point: str, count: int) -> list[int]:
    """Up to `count` steps of a traced reply where the model was least sure, inside its function.

    Inside: after the line `def entry_point(...)` ends, before a closing fence. Branching in the
    signature or the prose around the code changes nothing that the examples could tell apart.
    """
    inside = []
    text = ""
    for step, token in enumerate(trace.tokens):
        _, found, function = text.partition(f"def {entry_point}")
        if found and "\n" in function and "```" not in function:
            inside.append(step)
        text += engine.detokenize([token])
    return sorted(inside, key=trace.margin)[:count]


def solve_crew(
    engine: Engine,
    problem: dict[str, Any],
    gen: GenerationSettings,
    budget: Budget,
    rounds: int,
    branches: int = 8,
) -> Solution:
    started = time.perf_counter()
    prompt, entry_point = problem["prompt"], problem["entry_point"]
    crew = _CrewRun(engine, problem, gen)
    single_task = single_prompt(prompt)

    # Each round gets its number from its place in ROUNDS, and names its steps after it.
    def direct(number: int) -> bool:
        reply = crew.code(
            single_task, budget.single, f"coder {number}", crew_system=False, trace=crew.first_trace
        )
        return crew.attempt(number, reply)

    def branched(number: int, task: str, trace: ReplyTrace, max_tokens: int, crew_system: bool) -> bool:
        """The versions that take the runner-up token at the traced reply's least sure steps."""
        for tried, step in enumerate(least_sure_steps(engine, trace, entry_point, branches), 1):
            label, branch = f"{number}.{tried}", trace.branch(step, rank=1)
            reply = crew.code(task, max_tokens, f"coder {label}", crew_system, continue_from=branch)
            if crew.attempt(number, reply, label):
                return True
        return False

    def second_thoughts(number: int) -> bool:
        return branched(number, single_task, crew.first_trace, budget.single, crew_system=False)

    def from_plan(number: int) -> bool:
        plan = crew.ask(_planner_task(entry_point), budget.planner, "planner")
        crew.plan_task = _coder_from_plan_task(entry_point, plan)
        reply = crew.code(crew.plan_task, budget.coder, f"coder {number}", trace=crew.plan_trace)
        return crew.attempt(number, reply)

    def reviewed(number: int) -> bool:
        # The first version, not the best: this round re-asks single's prompt, which that version
        # answered. On 0-81 the best (often the plan round's) lost problem 48 this way.
        code, checks = crew.code_and_checks(crew.first)
        review = crew.ask(_reviewer_task(code, checks), budget.reviewer, "reviewer")
        task = _single_with_feedback(prompt, checks, review)
        return crew.attempt(number, crew.code(task, budget.coder, f"coder {number}", crew_system=False))

    def failures_only(number: int) -> bool:
        _code, checks = crew.code_and_checks(crew.best)
        task = _single_with_feedback(prompt, checks)
        return crew.attempt(number, crew.code(task, budget.coder, f"coder {number}", crew_system=False))

    def plan_second_thoughts(number: int) -> bool:
        return branched(number, crew.plan_task, crew.plan_trace, budget.coder, crew_system=True)

    turns = {"direct": direct, "second_thoughts": second_thoughts, "from_plan": from_plan,
             "reviewed": reviewed, "failures_only": failures_only,
             "plan_second_thoughts": plan_second_thoughts}  # fmt: skip
    for number, name in enumerate(ROUNDS[: max(rounds, 1)], start=1):
        if turns[name](number):
            break
    assert crew.best is not None
    crew.solution.program, result = crew.best
    crew.solution.examples_passed = result.passed
    crew.solution.seconds = time.perf_counter() - started
    return crew.solution
