"""The project's own tests as they stood before the run, and what a round's test run says against
them: a test that passed before and fails now is the run's doing; a test that failed before and
still fails is not, unless the request is about it (then it must pass).

Tried with a project whose one unrelated test failed, every request ran all its rounds (85-380 s)
and reported failure, even when round 1 was right at 25 s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from agents.request import RequestFacts

# What a round's check line says of tests it broke; the runner keeps no round that says it.
REGRESSED = "passed before this run and fail now"
# pytest -rA's short summary: "PASSED test_a.py::test_one", "FAILED test_a.py::test_two - ...",
# "ERROR test_b.py - ImportError..." (a file that cannot be collected).
_OUTCOME = re.compile(r"^(PASSED|FAILED|ERROR|XPASS|XFAIL|SKIPPED)\s+(\S+)", re.M)


@dataclass(frozen=True)
class TestResults:
    passed: frozenset[str]
    failed: frozenset[str]  # failed, or errored (collection errors are named by file)
    seconds: float = 0.0  # how long the run took (0: not known)
    # How the tests the request is about failed, as the coder is shown it (rule failure_evidence).
    evidence: str = ""
    # Where the fix goes: the test is right, the code it runs is named (rule code_under_test).
    localised: str = ""

    @classmethod
    def parse(cls, stdout: str, seconds: float = 0.0) -> TestResults | None:
        """Each test's outcome from `pytest -rA` output; None when there is none to read."""
        passed, failed = set(), set()
        for outcome, test in _OUTCOME.findall(stdout):
            if outcome in ("PASSED", "XFAIL", "SKIPPED"):
                passed.add(test)
            elif outcome in ("FAILED", "ERROR", "XPASS"):
                failed.add(test)
        if not passed and not failed:
            return None
        return cls(frozenset(passed), frozenset(failed), seconds)


def test_file(test_id: str) -> str:
    return test_id.split("::", 1)[0]


def about(test_id: str, facts: RequestFacts) -> bool:
    """The request is about this test: it names the test's file or the test; it names a function
    the test is named after (`cheapest()` and test_cheapest_of_nothing_is_none); or it speaks of
    the tests and names the module they test, or no file ("make the failing tests pass"); a request
    naming tests by name is about those alone. Naming
    the module alone is not enough: "add remove() to inventory.py" is not about a failing test of
    cheapest() there (tried in the IDE: every round was spent on that test)."""
    path = test_file(test_id)
    name = test_id.rsplit("::", 1)[-1].split("[", 1)[0]
    if facts.names_file(path) or (name != path and facts.mentions(name)):
        return True
    if facts.named_tests:  # "the test test_total fails": that one, not every failing test
        return False
    if facts.renamed:  # a rename fixes no test ("Rename ... Yes, update the tests too" is no fix)
        return False
    words = set(name.lower().removeprefix("test_").split("_"))
    if any(call.lower() in words or f"_{call.lower()}_" in f"_{name.lower()}_" for call in facts.calls):
        return True
    if not facts.about_tests:
        return False
    tested = Path(path).stem.removeprefix("test_").removesuffix("_test")
    return not facts.files or any(Path(f).stem == tested for f in facts.files)


@dataclass(frozen=True)
class TestVerdict:
    regressions: list[str]  # passed before, fail now
    still_failing: list[str]  # failed before, fail now, and the request is about them
    excused: list[str]  # failed before, fail now, and the request is not about them
    added: list[str] = field(default_factory=list)  # not there before, and fail now

    @property
    def problem(self) -> str:
        parts = []
        if self.regressions:
            parts.append(f"{REGRESSED}: {', '.join(self.regressions[:6])}")
        if self.added:
            parts.append(f"added by this run, and fail: {', '.join(self.added[:6])}")
        if self.still_failing:
            parts.append(
                f"the request is about these, and they still fail: {', '.join(self.still_failing[:6])}"
            )
        return "; ".join(parts)


def passed_before(test_id: str, before: TestResults) -> bool:
    """It passed before the run; or it is a whole file that no longer loads (pytest names a
    collection error by its file) where tests passed before."""
    if test_id in before.passed:
        return True
    return "::" not in test_id and any(test_file(t) == test_id for t in before.passed)


def verdict(before: TestResults, now: TestResults, facts: RequestFacts) -> TestVerdict:
    """A failing test that was not there before is the run's own, not a test it broke: calling it
    "passed before" told the user so of a test the 0.5B had just written (tried in the IDE)."""
    failing = sorted(now.failed)
    old = [t for t in failing if t in before.failed]
    new = [t for t in failing if t not in before.failed]
    return TestVerdict(
        regressions=[t for t in new if passed_before(t, before)],
        still_failing=[t for t in old if about(t, facts)],
        excused=[t for t in old if not about(t, facts)],
        added=[t for t in new if not passed_before(t, before)],
    )


def judged_tests(before: TestResults | None, facts: RequestFacts) -> list[str]:
    """The tests that failed before the run and that the request is about: the judge of its
    tries (a try passes when they pass and nothing else breaks)."""
    return sorted(t for t in before.failed if about(t, facts)) if before is not None else []


def already_failing_notice(before: TestResults, facts: RequestFacts) -> str:
    """Said once, before round 1, when tests fail that the request is not about."""
    unrelated = sorted(t for t in before.failed if not about(t, facts))
    if not unrelated:
        return ""
    them = "test" if len(unrelated) == 1 else "tests"
    shown = ", ".join(unrelated[:5]) + (" …" if len(unrelated) > 5 else "")
    return (
        f"{len(unrelated)} {them} already failed before this request: {shown}. The request is not"
        " about them, so they do not keep the run going; a test that passed before must still pass."
    )
