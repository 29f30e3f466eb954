"""Rule tests_before_run: the project's tests run once before the run; a test that failed before
and that the request is not about does not keep the run going, a test that passed before must
still pass, and a request about a failing test must make it pass."""

from pathlib import Path

import pytest

from agents.events import CheckRun
from tests.crew_script import crew, events, files, notices

STATS = "def mean(xs):\n    return sum(xs) / len(xs)\n"
MEDIAN = STATS + "\n\ndef median(xs):\n    xs = sorted(xs)\n    return xs[len(xs) // 2]\n"
BROKEN = "def mean(xs):\n    return 0\n\n\ndef median(xs):\n    return sorted(xs)[len(xs) // 2]\n"
TEST_STATS = "from stats import mean\n\n\ndef test_mean():\n    assert mean([1, 3]) == 2\n"
TEST_OTHER = "def test_unrelated():\n    assert 1 + 1 == 3\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "stats.py").write_text(STATS)
    (tmp_path / "test_stats.py").write_text(TEST_STATS)
    (tmp_path / "test_other.py").write_text(TEST_OTHER)
    return tmp_path


def test_a_failing_test_the_request_is_not_about_does_not_keep_the_run_going(project: Path) -> None:
    summary, bus, _ = crew(
        project, "Add median(xs) to stats.py.", coder=[files(("stats.py", MEDIAN))] * 4, rounds=3
    )
    assert summary.checks_passed and summary.rounds_used == 1, summary.checks
    assert any(
        "1 test already failed before this request: test_other.py::test_unrelated" in n for n in notices(bus)
    )


def test_switched_off_every_round_is_spent_on_it(project: Path) -> None:
    summary, _, _ = crew(
        project, "Add median(xs) to stats.py.", coder=[files(("stats.py", MEDIAN))] * 4, rounds=2,
        without=frozenset({"tests_before_run"}),
    )  # fmt: skip
    assert not summary.approved and summary.rounds_used > 1


def test_a_run_whose_every_round_breaks_a_passing_test_changes_nothing(project: Path) -> None:
    summary, bus, _ = crew(
        project, "Add median(xs) to stats.py.", coder=[files(("stats.py", BROKEN))] * 4, rounds=2
    )
    assert not summary.approved
    assert (project / "stats.py").read_text() == STATS  # as it was
    assert summary.files_changed == [] and "Nothing was changed" in summary.message
    problems = [c.problem for c in events(bus, CheckRun)]
    assert any("passed before this run and fail now: test_stats.py::test_mean" in p for p in problems)
    assert any("No try beat the project as it was" in n for n in notices(bus))


def test_a_round_after_which_the_tests_no_longer_run_to_their_end_changes_nothing(project: Path) -> None:
    # pytest dies in test_mean, which passed before: no test fails, none passes either.
    dies = MEDIAN.replace("    return sum(xs)", "    import os\n\n    os._exit(3)\n    return sum(xs)")
    summary, bus, _ = crew(project, "Add median(xs) to stats.py.", coder=[files(("stats.py", dies))] * 4)
    assert not summary.approved
    assert (project / "stats.py").read_text() == STATS
    problems = [c.problem for c in events(bus, CheckRun)]
    assert any(
        "passed before this run and fail now: the tests did not run to their end" in p for p in problems
    )


def test_the_suite_gets_minutes_before_the_run_and_a_few_times_its_time_after() -> None:
    from agents.run.crew_tools import SUITE_S, suite_limits
    from agents.run.tests_before import TestResults
    from tools.sandbox import RunLimits

    took = TestResults(frozenset({"t.py::test_a"}), frozenset(), seconds=4.0)
    assert suite_limits(RunLimits(wall_s=10), None).wall_s == SUITE_S
    assert suite_limits(RunLimits(wall_s=10), took).wall_s == 22.0
    assert suite_limits(RunLimits(wall_s=10), TestResults(frozenset(), frozenset(), 90.0)).wall_s == SUITE_S
    assert suite_limits(RunLimits(wall_s=300), took).wall_s == 300


def test_a_request_about_the_failing_test_must_make_it_pass(project: Path) -> None:
    (project / "test_other.py").unlink()
    (project / "durations.py").write_text("def minutes(h):\n    return h * 30\n")
    (project / "test_durations.py").write_text(
        "from durations import minutes\n\n\ndef test_h():\n    assert minutes(2) == 120\n"
    )
    request = "The tests in test_durations.py fail. Fix durations.py so they pass."
    still = files(("durations.py", "def minutes(h):\n    return h * 31\n"))
    summary, _, _ = crew(project, request, coder=[still] * 4, rounds=1)
    assert not summary.approved
    # A try that leaves the test failing is not kept (rule fix_or_leave): the file is as it was.
    assert any("no try fixed the failing tests" in line for line in summary.checks), summary.checks
    assert (project / "durations.py").read_text() == "def minutes(h):\n    return h * 30\n"
    fixed = files(("durations.py", "def minutes(h):\n    return h * 60\n"))
    summary, _, _ = crew(project, request, coder=[fixed] * 4, rounds=1)
    assert summary.approved


@pytest.mark.parametrize(
    ("request_text", "is_about"),
    [
        ("Add a method remove(name, qty=1) to Inventory in inventory.py.", False),  # its module only
        ("cheapest() crashes on an empty inventory. Make it return None then.", True),  # the test's name
        ("The tests in tests/test_inventory.py fail. Fix inventory.py so they pass.", True),
        ("Fix inventory.py so its tests pass.", True),
        ("Make the failing tests pass.", True),
        ("Make test_cheapest_of_nothing_is_none pass.", True),
        ("Rename cheapest to lowest, and update the tests too.", False),  # a rename fixes no test
    ],
)
def test_a_request_is_about_a_failing_test_when_it_names_it_its_function_or_speaks_of_tests(
    request_text: str, is_about: bool
) -> None:
    from agents.request import RequestFacts
    from agents.run.tests_before import about

    test_id = "tests/test_inventory.py::test_cheapest_of_nothing_is_none"
    assert about(test_id, RequestFacts.read(request_text)) is is_about


def test_a_failing_test_in_the_named_modules_own_test_file_does_not_keep_the_run_going(
    project: Path,
) -> None:
    (project / "test_other.py").unlink()
    broken_mode = "\n\ndef test_mode_of_nothing():\n    from stats import mode\n    assert mode([]) is None\n"
    (project / "test_stats.py").write_text(TEST_STATS + broken_mode)
    summary, bus, _ = crew(
        project, "Add median(xs) to stats.py.", coder=[files(("stats.py", MEDIAN))] * 4, rounds=3
    )
    assert summary.checks_passed and summary.rounds_used == 1, summary.checks
    assert any("test_stats.py::test_mode_of_nothing" in n for n in notices(bus))


def test_a_test_the_run_adds_and_that_fails_is_not_called_one_that_passed_before(project: Path) -> None:
    # Tried in the IDE: asked for a test of count(), the 0.5B wrote a wrong one; the check said it
    # "passed before this run", and the run's test was thrown away as a broken one.
    (project / "test_other.py").unlink()
    wrong = TEST_STATS + "\n\ndef test_mean_of_two():\n    assert mean([2, 4]) == 4\n"
    summary, bus, _ = crew(
        project, "Add a test of mean() for two numbers to test_stats.py.",
        coder=[files(("test_stats.py", wrong))] * 4, rounds=2,
    )  # fmt: skip
    problems = [c.problem for c in events(bus, CheckRun) if c.problem]
    assert any("added by this run, and fail: test_stats.py::test_mean_of_two" in p for p in problems)
    assert not any("passed before this run" in p for p in problems)
    assert not summary.approved and (project / "test_stats.py").read_text() == wrong  # left to the user


def test_a_test_file_that_no_longer_loads_is_one_the_run_broke() -> None:
    from agents.request import RequestFacts
    from agents.run.tests_before import REGRESSED, TestResults, verdict

    before = TestResults(frozenset({"test_a.py::test_one"}), frozenset())
    now = TestResults(frozenset(), frozenset({"test_a.py", "test_new.py"}))
    found = verdict(before, now, RequestFacts.read("Add median to stats.py."))
    assert found.regressions == ["test_a.py"] and found.added == ["test_new.py"]
    assert REGRESSED in found.problem
