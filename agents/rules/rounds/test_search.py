"""Rule test_judged_candidates: where the project's own failing tests judge the request ("this test
fails, fix it"), or a command it names that crashes now ("python cli.py low fails: ..."), round 1
is the greedy answer and each later round decodes several candidates in one batch; each is run
against that judge (it first, then the whole suite), and the run stops
at the first that passes; a round none passes leaves its best candidate on disk, and the next
round starts from it and its failure.

Agentless's shape (localise, sample repairs, validate each by running the tests). Measured on the
1.5B: asked to fix a one-word bug its failing test points at, three sequential rounds changed
nothing, while the same model given the test's output once wrote a passing fix in 3 of 5 samples
(issue 55). Four sequences decoded together cost about 2x one on a 2-core CPU (1.9x the tokens/s).

Each candidate is written, tested and put back before the next: no candidate's files stay on disk
half-applied, whatever it wrote or was refused.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Protocol

from agents.events import CheckRun, EventBus, FileChanged, Notice, ReviewVerdict, preview
from agents.llm.local_llm import RunCancelledError
from agents.rules.checks.named_commands import run_commands_judge
from agents.rules.prompt.failure_evidence import evidence
from agents.rules.rule import RuleSwitches, Stage, rule
from agents.run.crew_tools import Check, ToolContext, suite_limits
from agents.run.state import RunState
from agents.run.tests_before import TestResults, judged_tests, test_file
from agents.run.versions import Version, files_now, restore_round, same_code, version_of
from models.chat_engine import GenerationSettings
from tools.sandbox import run_pytest

CANDIDATES = 4  # on a CPU, four decoded together cost about two answers' time
TEMPERATURE = 0.8  # the measurement: 3 of 5 samples at 0.8 passed where greedy failed


class SearchHost(Protocol):
    """What a judged round needs of the crew runner (agents/run/runner.py)."""

    bus: EventBus
    rules: RuleSwitches
    roles: Any  # agents.llm.roles.Roles: the coder's role
    coder_turn: Any  # agents.run.coder_turn.CoderTurn
    candidate_texts: list[str]
    settings: Any  # agents.run.runner.CrewSettings: `candidates`

    def _judge(self, state: RunState, written_before: int) -> list[str]: ...


@dataclass
class Tried:
    """One candidate's outcome, to start the next round from the best."""

    index: int
    judged: int  # how many of the judge's tests passed
    version: Version
    problems: list[str]
    results: list[Check]
    state: tuple[Any, list[str]]  # the checks' outcome and failed checks, as the runner left them
    checked: bool  # the whole suite ran on it: its version is among the run's (keep-best's choice)


@rule(
    "test_judged_candidates",
    Stage.ROUNDS,
    reason=(
        "where failing project tests (or a named command that crashes) judge the request, after a greedy "
        "first try each round decodes "
        "several candidates in one batch, runs those tests then the suite on each, stops at the first "
        "that passes, and starts the next round from the best"
    ),
    evidence="bench/results/2026-11-28-test-judged-candidates",
)
def judge_of(state: RunState, rules: RuleSwitches) -> list[str]:
    """What this run is judged by ([]: no search), where the rule is on: the failing tests the
    request is about (the project's tests ran before the run), else the commands it names that
    crash now (rule named_commands: "python cli.py low --below 3 fails")."""
    if not rules.on(judge_of):
        return []
    return judged_tests(state.tests_before, state.facts) or state.crashed_commands


def _commands(judge: list[str]) -> bool:
    return bool(judge) and all(item.startswith("python") for item in judge)


def candidate_settings(base: GenerationSettings, round_number: int, n: int) -> list[GenerationSettings]:
    """Round 1 is the greedy answer alone, streamed as the crew always gave it: shown the failure,
    the 1.5B's greedy fix passed at 74 s, where decoding four together first took 386 s on the
    loaded 2-core machine (bench/results/2026-11-28-test-judged-candidates). Each later round is
    n samples, each with a seed of its own across the rounds."""
    if round_number == 1:
        return [base]
    return [
        replace(base, temperature=TEMPERATURE, seed=base.seed + (round_number - 2) * n + i + 1)
        for i in range(n)
    ]


def run_judge(context: ToolContext, tests: list[str], before: TestResults | None) -> tuple[Check, int]:
    """The judge's tests, alone (the files that hold them), or its commands: a check, and how many
    of them passed."""
    if _commands(tests):
        return run_commands_judge(context, tests)
    files = sorted({test_file(t) for t in tests})
    limits = suite_limits(context.limits, before)
    result = run_pytest(context.root, files[0], limits=limits, extra=("-rA", "--tb=short", *files[1:]))
    now = TestResults.parse(result.stdout_tail)
    passed = sum(t in now.passed for t in tests) if now is not None and result.limit_hit is None else 0
    failing = [t for t in tests if now is None or t not in now.passed]
    problem = f"the request is about these, and they still fail: {', '.join(failing[:6])}" if failing else ""
    check = Check(result, problem, label="the failing tests", still_failing=tuple(failing))
    context.runs.append(result)
    context.bus.emit(
        CheckRun(
            command=check.label, exit_code=result.exit_code, passed=not failing, limit_hit=result.limit_hit,
            duration_s=result.duration_s, stdout_tail=preview(result.stdout_tail, 2000),
            stderr_tail=preview(result.stderr_tail, 2000), problem=problem,
        )
    )  # fmt: skip
    return check, passed


def judged_round(crew: SearchHost, state: RunState) -> bool:
    """One round of the search; whether another may follow (False: a candidate passed)."""
    context, bus = state.context, crew.bus
    judge = judge_of(state, crew.rules)
    batch = crew.settings.candidates or CANDIDATES
    gens = candidate_settings(crew.roles.coder.generation, state.round_number, batch)
    n = len(gens)
    coder = replace(crew.roles.coder, generation=gens[0])
    bus.emit(Notice(level="info", message=_budget(state, judge, batch)))
    start = files_now(context)  # the files as this round found them: each candidate starts there
    state.echoed = False  # the search shows whole files: no focused retry
    tried: list[Tried] = []
    written_before = len(context.written)
    try:
        state.problems = crew.coder_turn.run(state, coder, candidates=gens if n > 1 else None)
        texts = crew.candidate_texts or ["" for _ in gens]
        for i, text in enumerate(texts):
            if i:
                restore_round(context, start, list(dict.fromkeys(context.written[written_before:])), bus)
                if text in texts[:i]:
                    said = f"Candidate {i + 1} of {n} repeats an earlier one."
                    bus.emit(Notice(level="info", message=said))
                    continue
                written_before = len(context.written)
                state.problems = crew.coder_turn.apply(state, text)
                if any(same_code(files_now(context), t.version.contents) for t in tried):
                    # Another reply, the same code (in the IDE all four of a round wrote one file).
                    said = f"Candidate {i + 1} of {n} writes the same code as an earlier one."
                    bus.emit(Notice(level="info", message=said))
                    continue
            tried.append(_try(crew, state, judge, written_before, i, n))
            if state.passed:
                return False
    except RunCancelledError:
        restore_round(context, start, list(dict.fromkeys(context.written[written_before:])), bus)
        raise
    _start_from_best(crew, state, start, written_before, tried)
    return not state.passed


def _budget(state: RunState, judge: list[str], batch: int) -> str:
    """What this round tries, and what the search may still cost."""
    tests = ", ".join(judge[:3]) + (" …" if len(judge) > 3 else "")
    later = state.rounds - state.round_number
    what = "one answer first" if state.round_number == 1 else f"{batch} candidates decoded together"
    more = f"; {later} round(s) more of {batch} candidates decoded together if none passes" if later else ""
    return (
        f"Round {state.round_number} of {state.rounds}: {what}, each tried on {tests}, then on the"
        f" whole {'project' if _commands(judge) else 'suite'}; the first that passes ends the run{more}."
    )


def _try(crew: SearchHost, state: RunState, judge: list[str], written_before: int, i: int, n: int) -> Tried:
    """Candidate i, on disk: the judge's tests first, then (where they pass) the round's checks."""
    context = state.context
    check, judged = run_judge(context, judge, state.tests_before)
    if judged == len(judge):
        crew._judge(state, written_before)  # the whole suite, as a round's checks; its verdict
    else:
        state.results, state.outcome, state.failures, state.passed = [check], None, [], False
        state.check_lines = [check.summary()]
        shown = (
            check.problem.split("; ")
            if _commands(judge)
            else evidence(check.result.stdout_tail, judge).splitlines()
        )
        crew.bus.emit(
            ReviewVerdict(round=state.round_number, approved=False, fixes=state.problems + shown[:6])
        )
    said = "passes" if state.passed else f"fails ({state.check_lines[0][:160]})"
    crew.bus.emit(Notice(level="info", message=f"Candidate {i + 1} of {n} {said}."))
    checked = judged == len(judge)
    # Not among the run's versions unless the whole suite ran on it: what it broke is not known.
    version = state.versions[-1] if checked else version_of(context, state.round_number, [check], None, [])
    return Tried(i, judged, version, state.problems, state.results, (state.outcome, state.failures), checked)


def _start_from_best(
    crew: SearchHost, state: RunState, start: dict[str, str], written_before: int, tried: list[Tried]
) -> None:
    """No candidate passed: the best (most of the judge's tests passing, then the fewest problems,
    then the first) is put on disk, and its failure is what the next round is told."""
    context = state.context
    restore_round(context, start, list(dict.fromkeys(context.written[written_before:])), crew.bus)
    if not tried:
        return
    best = max(tried, key=lambda t: (t.judged, -len(t.problems), -t.index))
    for rel, text in best.version.contents.items():
        try:
            if context.files.read_text(rel) == text:
                continue
            written = context.files.write_text(rel, text)
        except (ValueError, OSError) as exc:
            crew.bus.emit(Notice(level="warning", message=f"Could not write back {rel}: {exc}"))
            continue
        crew.bus.emit(FileChanged(path=written.rel, action="modified", diff=written.diff()))
    said = f"No candidate passed; the next round starts from candidate {best.index + 1} and its failure."
    crew.bus.emit(Notice(level="info", message=said))
    state.problems, state.results = best.problems, best.results
    state.outcome, state.failures = best.state
    if not best.checked:  # the whole suite on it, once: what it broke, for keep-best and the next try
        crew._judge(state, len(context.written))
