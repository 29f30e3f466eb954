"""What the runner does when the reviewer's own checks fail, before the coder is sent back, and
when a run ends.

On small models the reviewer's expected values are wrong about as often as the code, so a failed
check is settled before it costs a round (the rules in agents/rules/settle/): a check wanting a
value the request never promises runs as a plain call (mutator_checks), a check on code the
request does not touch that fails as it did before the run is dropped (outside_checks), a check
the model answers as the code does when asked again without the code is dropped
(check_disputes), and where a check still fails as it did before the run, the reviewer's own
version of the function is used if it passes every check (reviewer_version). At the end,
functions the run rewrote unasked are put back where every check still passes, or, after a run
that was not approved, where no passing check then fails (unasked_changes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agents.events import EventBus, Notice
from agents.request import RequestFacts
from agents.rules.checks.written_checks import CheckOutcome, failed_check
from agents.rules.rule import RuleSwitches
from agents.rules.settle.check_disputes import CheckDisputes, disputes, evaluate_in_sandbox, without
from agents.rules.settle.mutator_checks import as_calls, unpromised
from agents.rules.settle.outside_checks import (
    outside_the_request,
    project_names,
    tests_the_change,
    touched_names,
)
from agents.rules.settle.reviewer_version import (
    candidates,
    outcome_beside,
    passes_every_check,
    still_failing_as_before,
)
from agents.rules.settle.unasked_put_back import Trial, put_back_where_allowed, tests_trial
from agents.run.crew_tools import Check, ToolContext, WriteFileTool, run_written_checks
from agents.source.project_texts import ProjectTexts
from tools.sandbox import RunLimits

# The reviewer's short turn: (task, round) -> its reply.
Ask = Callable[[str, int], str]


@dataclass(frozen=True)
class Settled:
    check: Check
    outcome: CheckOutcome
    checks: str  # the checks kept ('' when none is left: the runs decide)
    rewrote: bool  # the reviewer's version was written: the files' own runs are stale


class CheckSettler:
    """One run's settling: the second opinion remembers the functions the model wrote again."""

    def __init__(
        self,
        bus: EventBus,
        texts: ProjectTexts,
        limits: RunLimits,
        ask: Ask,
        rules: RuleSwitches | None = None,
    ) -> None:
        self.rules = rules or RuleSwitches()
        self.bus = bus
        self.texts = texts
        self.limits = limits
        self.ask = ask
        self.disputes = CheckDisputes()

    def settle(
        self,
        context: ToolContext,
        facts: RequestFacts,
        modules: list[str],
        checks: str,
        check: Check,
        outcome: CheckOutcome,
        round_number: int,
        *,
        code_problems: bool,
    ) -> Settled:
        """The reviewer's checks after a run with failures. `code_problems`: the code has problems
        of its own (a refused write, an unbound name): only the plain calls are settled then."""
        on = self.rules.on
        plain = self._as_plain_calls(facts, checks, outcome.failures) if on(unpromised) else checks
        if plain != checks:
            checks = plain
            check, outcome = run_written_checks(context, modules, checks)
        if not outcome.failures or code_problems:
            return Settled(check, outcome, checks, False)
        if on(outside_the_request):
            check, outcome, checks = self._drop_outside_the_request(
                context, facts, modules, checks, check, outcome
            )
        if not outcome.failures or not checks:
            return Settled(check, outcome, checks, False)
        if on(disputes):
            check, outcome, checks = self._second_opinion(
                context, facts, modules, checks, outcome, check, round_number
            )
        rewrote = (
            bool(outcome.failures)
            and on(candidates)
            and self._use_reviewers_version(context, facts, modules, checks, outcome.failures)
        )
        return Settled(check, outcome, checks, rewrote)

    def second_opinion(
        self, facts: RequestFacts, checks: str, failures: list[str], round_number: int
    ) -> list[str]:
        """The failed checks that the model, asked again without the code, answers as the code does."""
        data = self.texts.data_files(facts.files)  # read once for all of this round's questions
        return self.disputes.settle(
            checks,
            failures,
            facts,
            self.texts.data_files_text(facts.files),
            ask=lambda call, task: self._ask_again(call, task, round_number),
            evaluate=lambda program: evaluate_in_sandbox(program, self.limits, data),
        )

    def _ask_again(self, call: str, task: str, round_number: int) -> str:
        # Said first, so the reviewer's short turn that follows reads as what it is.
        self._say(f"A check failed on `{call[:120]}`; asking what it must return, without the code.")
        return self.ask(task, round_number)

    def _second_opinion(
        self,
        context: ToolContext,
        facts: RequestFacts,
        modules: list[str],
        checks: str,
        outcome: CheckOutcome,
        check: Check,
        round_number: int,
    ) -> tuple[Check, CheckOutcome, str]:
        """Failed checks the model, asked again without the code, answers as the code does are
        dropped, and the rest run again."""
        dropped = self.second_opinion(facts, checks, outcome.failures, round_number)
        if not dropped:
            return check, outcome, checks
        for line in dropped:
            self._say(f"Dropped the check `{line[:160]}`: asked again, the model gave the code's value")
        kept = without(checks, dropped)
        if not kept:
            return check, outcome, ""
        check, outcome = run_written_checks(context, modules, kept)
        return check, outcome, kept

    def _drop_outside_the_request(
        self,
        context: ToolContext,
        facts: RequestFacts,
        modules: list[str],
        checks: str,
        check: Check,
        outcome: CheckOutcome,
    ) -> tuple[Check, CheckOutcome, str]:
        """Failed checks on code the request does not touch that fail as they did before the run
        are dropped (agents/rules/settle/outside_checks) while a check on the change remains, and the rest run
        again."""
        written = self.texts.small(self.texts.python_written(context.written))
        touched = touched_names(facts, written, context.originals)
        if touched is None or not outside_the_request(outcome.failures, touched):
            return check, outcome, checks
        beside = self.texts.trial_folder(facts.files, written)  # read only now that there is a candidate
        sources = {path: text for path, text in beside.items() if path.endswith(".py")}
        found = outside_the_request(outcome.failures, touched, project_names(sources))
        if not found:
            return check, outcome, checks
        before = {rel: text for rel, text in context.originals.items() if text is not None}
        as_before = outcome_beside({**beside, **before}, modules, checks, self.limits)
        dropped = [failed_check(f) for f in found if as_before is not None and f in as_before.failures]
        kept = without(checks, dropped)
        if not dropped or not tests_the_change(kept, touched):
            return check, outcome, checks
        for line in dropped:
            self._say(
                f"Dropped the check `{line[:160]}`: it calls only code the request does not name and the"
                " run did not change, and it failed the same way before the run."
            )
        check, outcome = run_written_checks(context, modules, kept)
        return check, outcome, kept

    def _as_plain_calls(self, facts: RequestFacts, checks: str, failures: list[str]) -> str:
        """The checks with each failed one that wants a value the request never promises turned
        into its plain call (agents/rules/settle/mutator_checks)."""
        replaced = unpromised(checks, failures, facts)
        for line, call in replaced.items():
            method = call.split("(")[0].rsplit(".", 1)[-1]
            self._say(
                f"The check `{line}` wants a value the request never says {method}() gives:"
                " it runs as a plain call."
            )
        return as_calls(checks, replaced) if replaced else checks

    def _use_reviewers_version(
        self, context: ToolContext, facts: RequestFacts, modules: list[str], checks: str, failures: list[str]
    ) -> bool:
        """Writes the reviewer's own version of the failing functions (agents/rules/settle/reviewer_version)
        where, tried away from the workspace, it passes every check. Whether it wrote one."""
        implementations = self.disputes.implementations
        if not implementations:
            return False
        written = self.texts.small(self.texts.python_written(context.written))
        found = candidates(implementations, written, failures, context.originals)
        if not found:
            return False
        beside = self.texts.trial_folder(facts.files, written)  # read only now that there is something to try
        before = {rel: text for rel, text in context.originals.items() if text is not None}
        as_before = outcome_beside({**beside, **before}, modules, checks, self.limits)
        if not still_failing_as_before(failures, as_before):
            return False
        for candidate in found:
            if not passes_every_check(candidate, beside, modules, checks, self.limits):
                continue
            self._say(
                f"A check still fails as it did before the run, and the reviewer's own"
                f" {', '.join(candidate.names)}, written to settle a check, passes every check: using it in"
                f" {candidate.path}, the rest of the file as it was."
            )
            context.agent = "reviewer"
            try:
                result = WriteFileTool().bind(context).run(path=candidate.path, content=candidate.text)
            except ValueError:
                return False
            return not result.startswith("Error")
        return False

    def put_back_after(
        self,
        context: ToolContext,
        facts: RequestFacts,
        checks: tuple[list[str], str],
        tests: bool,
        *,
        approved: bool,
    ) -> None:
        """At the end of a run: the unasked changes put back where the checks allow, judged by the
        reviewer's asserts (`checks`: the modules and the asserts) or else the project's own tests."""
        modules, asserts = checks
        if modules and asserts:
            self.put_back_unasked(context, facts, modules, asserts, approved=approved)
        elif tests:
            self.put_back_unasked_by_tests(context, facts)

    def put_back_unasked(
        self, context: ToolContext, facts: RequestFacts, modules: list[str], checks: str, *, approved: bool
    ) -> None:
        """Puts back, as they were before the run, the functions the run changed unasked
        (agents/rules/settle/unasked_put_back). After an approved run, where every check passes without the
        change; after one that was not (the files as keep-best left them), where no check that
        passes with the change fails without it."""

        def run(files: dict[str, str]) -> CheckOutcome | None:
            return outcome_beside(files, modules, checks, self.limits)

        def accept(outcome: CheckOutcome, now: CheckOutcome | None) -> bool:
            return outcome.ok if approved else _no_worse(outcome, now)

        why = (
            "every check passes without the change."
            if approved
            else "no check that passed with the change fails without it."
        )
        trial = Trial(run, accept, needs_now=not approved, why=why)
        beside = lambda: self.texts.trial_folder(facts.files, {})  # noqa: E731
        for message in put_back_where_allowed(context, self.texts, facts, beside, trial):
            self._say(message)

    def put_back_unasked_by_tests(self, context: ToolContext, facts: RequestFacts) -> None:
        """The same where the project's own tests were the checks: put back where every test that
        passed with the change still passes."""
        trial, beside = tests_trial(self.texts, self.limits)
        for message in put_back_where_allowed(context, self.texts, facts, beside, trial):
            self._say(message)

    def _say(self, message: str) -> None:
        self.bus.emit(Notice(level="info", message=message))


def _no_worse(outcome: CheckOutcome, before: CheckOutcome | None) -> bool:
    """Every check that passed before still passes (a check is known by its text)."""
    if before is None:
        return False
    failed_before = {failed_check(f) for f in before.failures}
    return outcome.passed >= before.passed and all(failed_check(f) in failed_before for f in outcome.failures)
