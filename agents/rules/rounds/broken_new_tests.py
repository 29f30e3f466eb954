"""Rule broken_new_tests: a test the run adds that fails inside itself, before it reaches the
project's code, is the test's fault: the round counts as worse than the project was, and the run
does not stop to ask the user about the code.

In the IDE, "Add a test to tests/test_roster.py that Roster.load skips a blank line" got a test that
opened `tmp_path` (a folder) for writing: IsADirectoryError on the test's own line. The crew stopped
("the tests ... failed on code this run did not change ... if a test is right, the code under test
is wrong") and left the broken test on disk.
"""

from __future__ import annotations

import re

from agents.request import is_user_test
from agents.rules.prompt.failure_evidence import Failure, failures, project_path
from agents.rules.rule import Stage, rule
from agents.run.crew_tools import Check, ToolContext

_RAISED = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception)):?")
# A path the new test hands the code that is not there, or not a file: the test set it up wrong,
# wherever it was opened (the 1.5B's test loaded a tests/test_roster.csv it never wrote).
INSIDE = "fails inside the test itself"  # the damage line's mark, which asked_tests_stop reads
_SETUP = ("FileNotFoundError", "IsADirectoryError", "NotADirectoryError")


def _own_fault(failure: Failure) -> str:
    """The exception a failure raised without a frame in the project's code, or a path it was
    not given ('' if it asserted, or reached the code under test: then the code may be wrong)."""
    raised = _RAISED.match(failure.error[0]) if failure.error else None
    if raised is None or raised.group(1).endswith("AssertionError"):
        return ""
    if raised.group(1).rsplit(".", 1)[-1] in _SETUP:
        return failure.error[0][:160]
    places = [where.rsplit(":", 1)[0] for where, _ in failure.frames]
    if any(project_path(p) and not is_user_test(p) for p in places):
        return ""
    return failure.error[0][:160]


def _new_in_run(context: ToolContext, test_id: str) -> bool:
    """The test function is one this run wrote: its file is new, or did not define it before."""
    rel, _, name = test_id.partition("::")
    if rel not in context.written or not name:
        return False
    before = context.originals.get(rel)
    function = name.split("::")[-1].split("[")[0]
    return before is None or re.search(rf"\bdef {re.escape(function)}\b", before) is None


@rule(
    "broken_new_tests",
    Stage.ROUNDS,
    reason=(
        "a test the run adds that fails inside itself, before reaching the project's code, makes the"
        " round worse"
    ),
    evidence="tests/test_broken_new_tests.py",
)
def broken_new_tests(context: ToolContext, results: list[Check]) -> list[str]:
    """A line for each test this run added that raised in its own code (or the libraries it
    called), never reaching the project's."""
    found = []
    for check in results:
        if "pytest" not in check.result.command_text() or check.passed:
            continue
        for test_id, failure in failures(check.result.stdout_tail).items():
            fault = _own_fault(failure)
            if fault and _new_in_run(context, test_id):
                kind = fault.split(":")[0]  # the user's summary keeps what comes before ": "
                found.append(
                    f"{test_id}, added by this run, {INSIDE} ({kind}) before it"
                    f" reaches the project's code: {fault}; the test is wrong."
                )
    return found
