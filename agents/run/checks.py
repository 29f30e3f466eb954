"""The checks stage of a round: the runs (the project's tests, or the files written), the docstring
examples or the reviewer's asserts, and the settling of the reviewer's own failed checks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from agents.events import EventBus, Notice
from agents.llm.roles import checks_task
from agents.request import RequestFacts, is_test_file
from agents.rules.checks.checks_beside_tests import checks_beside_tests
from agents.rules.checks.expects_output import expects_output
from agents.rules.checks.named_commands import crash_evidence
from agents.rules.checks.tests_before_run import tests_before_run
from agents.rules.checks.written_checks import (
    CheckOutcome,
    enough_checks,
    example_checks,
    modules_of,
    parse_checks,
    signatures,
)
from agents.rules.prompt.code_under_test import localisation_note, suspects, test_sources
from agents.rules.prompt.failing_trace import failing_trace
from agents.rules.prompt.failure_evidence import called_code, evidence
from agents.rules.rule import RuleSwitches
from agents.run.crew_tools import Check, run_check, run_tests, run_written_checks, workspace_relative
from agents.run.settling import CheckSettler
from agents.run.state import RunState
from agents.run.tests_before import TestResults, already_failing_notice, judged_tests, test_file
from agents.source.project_texts import ProjectTexts
from tools.workspace_files import WorkspaceFiles, python_sources

# (task, round, expected, enough) -> the reviewer's reply
AskReviewer = Callable[..., str]


class RoundChecks:
    def __init__(
        self, files: WorkspaceFiles, texts: ProjectTexts, bus: EventBus, rules: RuleSwitches, ask: AskReviewer
    ) -> None:
        self.files, self.texts, self.bus, self.rules, self.ask = files, texts, bus, rules, ask

    def runs(self, state: RunState, written: list[str]) -> list[Check]:
        """The project's tests when it has any (against the tests before the run, where they were
        run); otherwise each Python file written, run."""
        context = state.context
        context.agent = "checks"
        if any(is_test_file(f) for f in self.files.list_files()):
            if state.tests_before is not None:
                return [run_tests(context, state.tests_before)]
            return [run_check(context, "tests", ".")]
        root = self.files.root
        targets = [f for f in written if f.endswith(".py") and (root / f).is_file()][:3]
        prints = self.rules.on(expects_output) and expects_output(state.facts, targets)
        return [run_check(context, "python", t, expects_output=prints) for t in targets]

    def judge(
        self, state: RunState, settler: CheckSettler, this_round: list[str]
    ) -> tuple[list[Check], CheckOutcome | None]:
        """The round's check results and the written checks' outcome (None: none ran)."""
        context, facts = state.context, state.facts
        results = self.runs(state, this_round)
        state.modules = modules_of(self.texts.python_written(context.written))
        modules = state.modules
        if not checks_beside_tests(self.rules, modules, state.user_tests):
            return results, None
        if state.written_checks is None:
            # Examples the docstrings already give are the checks; the reviewer writes some only
            # where there are none.
            state.written_checks = state.examples_before or self.example_checks(modules)
            if not state.written_checks and self.rules.on(parse_checks):
                state.reviewer_wrote = True
                state.written_checks = self.write_checks(facts, modules, state.round_number)
        checks = state.written_checks
        if not checks:
            return results, None
        check, outcome = run_written_checks(context, modules, checks)
        if state.reviewer_wrote and outcome.failures:
            # Only the reviewer's own checks: docstring examples are the spec.
            settled = settler.settle(
                context, facts, modules, checks, check, outcome, state.round_number,
                code_problems=bool(state.problems),
            )  # fmt: skip
            check, outcome, state.written_checks = settled.check, settled.outcome, settled.checks
            if settled.rewrote:
                results = self.runs(state, this_round)
                check, outcome = run_written_checks(context, modules, state.written_checks)
        if not state.written_checks:
            return results, None
        return results + [check], outcome

    def tests_before(self, state: RunState) -> None:
        """Runs the project's tests once before round 1 and keeps each test's outcome; says once
        which already fail that the request is not about."""
        self.command_evidence(state)
        if not state.user_tests or not self.rules.on(tests_before_run):
            return
        state.context.agent = "checks"
        before, state.tests_before = tests_before_run(state.context)
        judge = judged_tests(state.tests_before, state.facts)
        # Read once for both localising rules (each used to read every project file itself).
        sources = python_sources(self.files) if state.tests_before is not None and judge else {}
        if state.tests_before is not None and judge and self.rules.on(evidence):
            output = workspace_relative(before.stdout_tail, state.context.root)
            state.tests_before = replace(state.tests_before, evidence=evidence(output, judge, only=True))
            code = called_code(output, judge, sources)
            if code:  # localised: the code the failing test calls, whole, before what search found
                state.context_text = f"The code the failing test calls:\n{code}\n\n{state.context_text}"
        if state.tests_before is not None and judge and self.rules.on(failing_trace):
            trace = failing_trace(state.context, judge[0])
            if trace:
                shown = f"{state.tests_before.evidence}\n\n{trace}".strip()
                state.tests_before = replace(state.tests_before, evidence=shown)
        if state.tests_before is not None and judge and self.rules.on(suspects):
            self.localise(state, judge, sources)
        if state.tests_before is None and before.limit_hit not in (None, "stop"):
            self.bus.emit(
                Notice(
                    level="warning",
                    message=f"The project's tests did not finish before the run ({before.summary()}):"
                    " the rounds are judged by their exit code alone, not test by test.",
                )
            )
        if state.tests_before is not None:
            notice = already_failing_notice(state.tests_before, state.facts)
            if notice:
                self.bus.emit(Notice(level="info", message=notice))

    def command_evidence(self, state: RunState) -> None:
        """Rule named_commands: where a command the request names crashes now, round 1 is shown
        its traceback."""
        if not state.context.facts.commands:
            return
        state.context.agent = "checks"
        crash, state.crashed_commands = crash_evidence(state.context, state.context.facts)
        if crash:
            state.crashes_before = "What the commands the request names do now:\n" + workspace_relative(
                crash, state.context.root
            )

    def localise(self, state: RunState, judge: list[str], sources: dict[str, str]) -> None:
        """Rule code_under_test: the note that the tests are right and where the fix goes; with no
        file named, the code under test is the coder's to write, the tests shown beside it."""
        assert state.tests_before is not None
        found = suspects(judge, _passing(state.tests_before, judge), sources)
        note = localisation_note(found, judge)
        if found and not state.allowed_files:
            state.allowed_files = sorted({s.path for s in found})
            note = f"{note}\n{test_sources(judge, sources)}"
        state.tests_before = replace(state.tests_before, localised=note)

    def example_checks(self, modules: list[str]) -> str:
        if not self.rules.on(example_checks):
            return ""
        found = []
        for module in modules[:3]:
            try:
                found.append(example_checks(self.files.read_text(module.replace(".", "/") + ".py")))
            except (ValueError, OSError):
                continue
        return "\n".join(f for f in found if f)

    def signatures_text(self, modules: list[str]) -> str:
        shown = []
        for module in modules[:3]:
            try:
                shown.append(
                    f"# {module}\n{signatures(self.files.read_text(module.replace('.', '/') + '.py'))}"
                )
            except (ValueError, OSError):
                continue
        return "\n".join(shown)

    def write_checks(self, facts: RequestFacts, modules: list[str], round_number: int) -> str:
        """The reviewer's turn: assert lines from the request and the code's signatures."""
        data = self.texts.data_files_text(facts.files)
        task = checks_task(facts.text, self.signatures_text(modules), data)
        checks = parse_checks(self.ask(task, round_number, "assert lines", enough=enough_checks))
        if not checks:
            self.bus.emit(Notice(level="info", message="The reviewer wrote no usable check: runs decide."))
        return checks


def _passing(before: TestResults, judge: list[str]) -> list[str]:
    """The tests of the judge's files that passed before the run: what they run is not the bug."""
    files = {test_file(t) for t in judge}
    return sorted(t for t in before.passed if test_file(t) in files)
