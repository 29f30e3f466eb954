"""Rule `checked_approval`: a run is approved only on a check of its change.

In a project with tests of its own, the reviewer writes no asserts (rule `checks_beside_tests` is
off), so the project's tests are the only check. When they passed before the run and pass after it,
with none fixed and none added, they say that nothing broke, not that the asked change is there:
every false approval of the 1.5B's sealed run was such a run (bench/results/
checked-approval-2026-11-27). The run still ends there, as before; it is reported as "every check
passed, not approved", and the user is told why. A rename found complete in the files is a
change the tests check (rule `rename_verified`, agents/rules/rounds/rename_check.py).
"""

from __future__ import annotations

from agents.rules.rounds.rename_check import rename_done
from agents.rules.rule import RuleSwitches, Stage, rule
from agents.run.state import RunState
from agents.run.tests_before import TestResults
from tools.workspace_files import python_sources

UNCHECKED = (
    "Every check passed, but none of them checks this change: the project's tests passed before this"
    " run too, and no test was fixed or added. Not approved: read the change (the Last run tab) before"
    " you keep it."
)


def changes_shown(before: TestResults | None, now: TestResults | None) -> bool:
    """The tests say something the run did: one that failed before passes now, or one passes that
    was not there before. Not known test by test (either side None): they are taken as a check, as
    they were before this rule."""
    if before is None or now is None:
        return True
    fixed = before.failed & now.passed
    added = now.passed - before.passed - before.failed
    return bool(fixed or added)


@rule(
    "checked_approval",
    Stage.ROUNDS,
    reason=(
        "a run is approved only on a check of its change: the project's tests passing as they did before "
        "the run are none"
    ),
    evidence="bench/results/2026-11-27-checked-approval",
)
def unchecked_approval(state: RunState, rules: RuleSwitches) -> str:
    """Why a run whose every check passed is still not approved ('': it is, or it did not pass)."""
    if not state.passed or not state.user_tests or state.outcome is not None:
        return ""  # not passed; no tests of its own; or asserts (the reviewer's, examples) ran too
    if len(state.results) != 1:
        return ""  # not the one run of the project's tests this rule is about
    now = TestResults.parse(state.results[0].result.stdout_tail)
    if changes_shown(state.tests_before, now):
        return ""
    if rules.on(rename_done) and state.facts.renamed:
        line = rename_done(state.facts.renamed, python_sources(state.context.files))
        if line:
            state.check_lines.append(line)
            return ""
    return UNCHECKED
