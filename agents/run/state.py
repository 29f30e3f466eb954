"""One run's state, as a value the runner's stages pass along (not kept on the runner)."""

from __future__ import annotations

from dataclasses import dataclass, field

from agents.llm.roles import Plan
from agents.request import RequestFacts
from agents.rules.checks.written_checks import CheckOutcome
from agents.run.crew_tools import Check, ToolContext
from agents.run.tests_before import TestResults
from agents.run.versions import Kept, Version, ending_message


@dataclass
class RunState:
    run_id: str
    facts: RequestFacts
    context: ToolContext
    started: float
    rounds: int  # as they stand: a plain try adds one (AgentStarted reports it)
    allowed_files: list[str] = field(default_factory=list)  # the files the coder may write
    earlier: list[str] = field(default_factory=list)  # files the previous run changed, still there
    memory: str = ""  # the previous request, for follow-ups
    context_text: str = ""  # retrieved code
    request_docs: str = ""  # the documentation of the APIs the request names (rule api_docs_named)
    crashes_before: str = ""  # how the commands the request names crash now (rule named_commands)
    crashed_commands: list[str] = field(default_factory=list)  # those commands: a search's judge
    user_tests: bool = False  # the project has tests of its own
    examples_before: str = ""  # the named files' docstring examples, before the coder can drop them
    written_checks: str | None = None  # the reviewer's asserts (or examples), asked once code exists
    reviewer_wrote: bool = False  # the checks are the reviewer's, not docstring examples
    modules: list[str] = field(default_factory=list)  # the Python modules written so far
    plan: Plan | None = None
    versions: list[Version] = field(default_factory=list)
    round_number: int = 0
    feedback: str = ""
    passed: bool = False
    check_lines: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)  # the failed written checks
    problems: list[str] = field(default_factory=list)  # the last coder turn's problems
    fresh_tried: bool = False  # a try from the files as they were, after a repeated answer
    plain_tried: bool = False
    out_of_time: bool = False  # the run's time budget ended it before its rounds did
    batched: bool = False  # a sampled retry decoded candidates together: the rounds were recounted
    echoed: bool = False  # the coder's last try wrote every file back as it was before the run
    results: list[Check] = field(default_factory=list)  # the last round's runs and checks
    outcome: CheckOutcome | None = None
    tests_before: TestResults | None = None  # the project's tests before the run, each test's outcome
    tests_fail: str = ""  # why the run stopped on tests it was asked to write

    def end_message(self, kept: Kept | None) -> str:
        """The run's last line in the chat: how it ended and what is on disk."""
        if not self.passed and self.tests_fail:  # the notice says why at length
            return (
                f"Stopped after round {self.round_number}: the tests ran, and fail on code this run did"
                " not change (see above)."
            )
        return ending_message(
            self.passed, self.round_number, self.versions, kept, out_of_time=self.out_of_time
        )
