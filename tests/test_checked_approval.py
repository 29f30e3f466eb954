"""Rule checked_approval: in a project with tests of its own, a run is approved only when a check
saw its change (a test it fixed or added, or asserts beside the tests); tests that passed before
and pass after end the run as before, reported as checks passed, not approved."""

from pathlib import Path

import pytest

from agents.rules.rounds.checked_approval import UNCHECKED, changes_shown
from agents.run import tests_before
from tests.crew_script import checks, crew, files

STATS = "def mean(xs):\n    return sum(xs) / len(xs)\n"
MEDIAN = STATS + "\n\ndef median(xs):\n    xs = sorted(xs)\n    return xs[len(xs) // 2]\n"
TEST_STATS = "from stats import mean\n\n\ndef test_mean():\n    assert mean([1, 3]) == 2\n"
TEST_MEDIAN = "from stats import median\n\n\ndef test_median():\n    assert median([3, 1, 2]) == 2\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "stats.py").write_text(STATS)
    (tmp_path / "test_stats.py").write_text(TEST_STATS)
    return tmp_path


def test_tests_that_passed_before_and_pass_after_do_not_approve(project: Path) -> None:
    summary, _, _ = crew(project, "Add median(xs) to stats.py.", coder=[files(("stats.py", MEDIAN))] * 3)
    assert summary.checks_passed and not summary.approved
    assert summary.message == UNCHECKED and summary.rounds_used == 1  # the run still ends there
    assert (project / "stats.py").read_text() == MEDIAN  # and its change stays


def test_switched_off_the_same_run_is_approved(project: Path) -> None:
    summary, _, _ = crew(
        project, "Add median(xs) to stats.py.", coder=[files(("stats.py", MEDIAN))] * 3,
        without=frozenset({"checked_approval"}),
    )  # fmt: skip
    assert summary.approved and summary.message.startswith("Approved")


def test_a_test_the_run_adds_and_that_passes_is_a_check_of_it(project: Path) -> None:
    reply = files(("stats.py", MEDIAN), ("test_median.py", TEST_MEDIAN))
    summary, _, _ = crew(
        project, "Add median(xs) to stats.py, with a test of it in test_median.py.", coder=[reply]
    )
    assert summary.approved, summary.message


def test_a_test_that_failed_before_and_passes_now_is_a_check_of_it(project: Path) -> None:
    (project / "stats.py").write_text("def mean(xs):\n    return 0\n")
    summary, _, _ = crew(
        project, "test_stats.py fails. Fix mean in stats.py.", coder=[files(("stats.py", STATS))] * 3
    )
    assert summary.approved, summary.message


def test_the_reviewers_asserts_beside_the_tests_are_a_check_of_it(project: Path) -> None:
    summary, _, _ = crew(
        project, "Add median(xs) to stats.py.", coder=[files(("stats.py", MEDIAN))] * 3,
        reviewer=[checks("assert median([3, 1, 2]) == 2")] * 3, with_=frozenset({"checks_beside_tests"}),
    )  # fmt: skip
    assert summary.approved, summary.message


def test_tests_not_known_one_by_one_are_taken_as_a_check() -> None:
    before = tests_before.TestResults(frozenset({"t.py::a"}), frozenset())
    assert changes_shown(None, before) and changes_shown(before, None)
    assert not changes_shown(before, before)
    assert changes_shown(before, tests_before.TestResults(frozenset({"t.py::a", "t.py::b"}), frozenset()))
