"""The rounds stage: which try comes next (plain, sampled, fresh or fix), when to stop, and what the
next try is told."""

from __future__ import annotations

import re
from dataclasses import replace

from agents.events import EventBus, Notice
from agents.llm.roles import Role
from agents.request import is_test_file
from agents.rules.checks.written_checks import CheckOutcome
from agents.rules.prompt.failure_evidence import evidence
from agents.rules.rounds.broken_new_tests import INSIDE
from agents.rules.rule import RuleSwitches, Stage, rule
from agents.run.crew_tools import Check, ToolContext, describe_run
from agents.run.noise import without_run_noise
from agents.run.state import RunState
from agents.run.versions import files_now, same_code
from models.chat_engine import GenerationSettings

RETRY_TEMPERATURE = 0.7


@rule(
    "plain_retry",
    Stage.ROUNDS,
    reason="after round 1 fails on a one-file request, one plain round more",
    evidence="bench/results/2026-11-26-humaneval-qwen2.5-coder-1.5b-plain-and-sampled",
)
def plain_round(state: RunState, rules: RuleSwitches) -> bool:
    """After round 1's checks fail on a one-file request (or a follow-up about one file), one round
    more asks plainly, greedy, without the rules or the failures: on HumanEval the 1.5B's crew lost
    problems one plain call solved. Only after a try whose checks failed: a refused write or a
    missing file is told instead."""
    one_file = len(state.allowed_files or state.earlier) == 1
    return state.round_number == 2 and rules.on(plain_round) and one_file and not state.problems


@rule(
    "sampled_retries",
    Stage.ROUNDS,
    reason="retries are sampled (seeded), not greedy: greedy repeats itself",
    evidence="bench/results/2026-11-26-crew-0.5b-plain-and-sampled",
)
def coder_for(
    coder: Role, state: RunState, rules: RuleSwitches, *, plain: bool, temperature: float = RETRY_TEMPERATURE
) -> Role:
    """Greedy decoding answers feedback with the same bytes (on the 0.5B, rounds 2 and 3 rewrote the
    failing file unchanged); a sampled retry tries something else, and the best round's files are
    kept anyway. Seeded by which sampled retry this is, so a rerun gives the same tries."""
    if state.round_number == 1 or plain or coder.generation.temperature != 0 or not rules.on(coder_for):
        return coder
    sampled = state.round_number - 1 - state.plain_tried  # the sampled retries so far, this one too
    seed = coder.generation.seed + sampled + 1
    return replace(coder, generation=replace(coder.generation, temperature=temperature, seed=seed))


@rule(
    "fresh_after_repeat",
    Stage.ROUNDS,
    reason="a retry that repeats an earlier try is asked again afresh at once",
    evidence="bench/results/2026-11-25-crew-0.5b",
)
def repeats(context: ToolContext, state: RunState) -> bool:
    """Whether the files written so far hold the code of an earlier round's version."""
    now = files_now(context)
    return any(same_code(v.contents, now) for v in state.versions)


def feedback(
    problems: list[str],
    results: list[Check],
    outcome: CheckOutcome | None,
    failures: list[str],
    rules: RuleSwitches | None = None,
) -> str:
    """What the next try is told: the problems, the runs that failed, each failed check once."""
    runs = results[:-1] if outcome else results  # the written checks' run is the last one
    shown = evidence_of if rules is not None and rules.on(evidence) else described
    failed_runs = [shown(r) for r in runs if not r.passed]
    if outcome and not failures and not outcome.ok:  # the check program itself crashed
        failed_runs.append(describe_run(results[-1])[:800])
    told = "\n".join(
        [f"- {p}" for p in problems]
        + failed_runs
        + ([f"Failed checks:\n{chr(10).join(failures)}"] if failures else [])
    )
    return without_run_noise(told) or "The checks did not pass."


def described(check: Check) -> str:
    return describe_run(check)[:800]


def evidence_of(check: Check) -> str:
    """A failed test run as its failures (agents/rules/prompt/failure_evidence): the output's last 800
    characters were often only `-rA`'s list of passing tests, the failure itself cut off."""
    shown = evidence(check.result.stdout_tail)
    return f"{check.summary()}\n{shown}" if shown else described(check)


def changed_files(context: ToolContext) -> list[str]:
    """Files written whose text now differs from before the run: the 0.5B often writes a file
    back as it was, and "Files changed: stats.py" then told the user of a change never made."""
    changed = []
    for rel in sorted(set(context.written)):
        try:
            now: str | None = context.files.read_text(rel)
        except (ValueError, OSError):  # gone since, or unreadable: not the text it was
            now = None
        before = context.originals.get(rel)  # None: new, or not kept to compare
        if before is None or now != before:
            changed.append(rel)
    return changed


@rule(
    "asked_tests_stop",
    Stage.ROUNDS,
    reason="asked for tests that fail on code the run did not change, the run stops",
    evidence="tests/test_crew_logic.py",
)
def asked_tests_fail(context: ToolContext, state: RunState, results: list[Check]) -> str:
    """Asked for tests, the run changed only test files, and they ran with failing asserts: what
    to tell the user ('' otherwise). The code under test may be wrong, or a test: the user is to
    say which. Asked for tests of a stats.py whose mean() has a bug, the 1.5B's tests were right
    and failed; the next rounds copied mean() into the test file to make them pass."""
    if state.problems or not state.facts.tests:
        return ""
    if state.versions and any(INSIDE in d for d in state.versions[-1].damage):
        return ""  # the new test is what is wrong (rule broken_new_tests): the coder tries again
    changed = changed_files(context)
    if not changed or not all(is_test_file(f) for f in changed):
        return ""
    for result in [r.result for r in results if "pytest" in r.result.command_text()]:
        tail = result.stdout_tail.strip().splitlines()
        last = tail[-1] if tail else ""
        failed = re.search(r"\b(\d+) failed\b", last)
        if result.limit_hit is None and failed and not re.search(r"\berrors?\b", last):
            tests = ", ".join(changed)
            return (
                f"the tests in {tests} ran, and {failed.group(1)} failed on code this run did not"
                " change. The request asks for tests, so the crew stopped rather than change that"
                " code or bend the tests to it: read the failures above; if a test is right, the"
                " code under test is wrong, and you can ask to fix it."
            )
    return ""


def candidate_count(engine: object, asked: int) -> int:
    """How many candidates a sampled retry decodes together: `asked`, or (0) from the hardware: on
    a GPU a batch of four costs little more than one; on a CPU one at a time, as before, until a
    batch is measured to pay there (bench.humaneval --candidates)."""
    if asked > 0:
        return asked
    report = getattr(engine, "load_report", None)
    return 4 if report is not None and getattr(report, "n_gpu_layers", 0) > 0 else 1


@rule(
    "candidates",
    Stage.ROUNDS,
    reason="a sampled retry decodes several candidates in one batch and tries each in turn",
    evidence="tests/test_candidates.py",
)
def candidate_settings(
    coder: Role, state: RunState, rules: RuleSwitches, n: int, *, plain: bool
) -> list[GenerationSettings] | None:
    """The settings of the candidates this round decodes together, or None (one reply): only for a
    sampled retry. Seeded so that with n = 1 each retry gets the seed it always had, and the first
    batch's seeds are those of the sequential retries it replaces."""
    if n < 2 or plain or state.round_number == 1 or coder.generation.temperature == 0:
        return None
    if not rules.on(candidate_settings):
        return None
    sampled = state.round_number - 1 - state.plain_tried  # 1 for the first sampled retry
    base = coder.generation.seed - sampled - 1  # coder_for's seed, less its offset
    return [replace(coder.generation, seed=base + (sampled - 1) * n + i + 2) for i in range(n)]


def round_candidates(
    engine: object, asked: int, coder: Role, state: RunState, rules: RuleSwitches, bus: EventBus, plain: bool
) -> list[GenerationSettings] | None:
    """A sampled retry decodes several candidates together (the engine's batch), tried in turn;
    the sequential retries left are then done that many at a time (state.rounds recounted)."""
    n = candidate_count(engine, asked)
    gens = candidate_settings(coder, state, rules, n, plain=plain)
    if gens and not state.batched:
        state.batched = True
        state.rounds = rounds_with_candidates(state, n)
    if gens:
        bus.emit(Notice(level="info", message=f"Decoding {n} candidates together; trying each in turn."))
    return gens


def rounds_with_candidates(state: RunState, n: int) -> int:
    """The rounds a run has once its sampled retries decode n candidates each: the sequential
    retries left are done n at a time."""
    left = state.rounds - state.round_number + 1  # this round's included
    return state.round_number + -(-left // n) - 1
