"""Rule test_judged_candidates: a request about the project's failing tests is a search: round 1 is
the greedy answer, each later round decodes several candidates in one batch; each is run on the
failing tests then the suite, the run stops at the first that passes, and a round none passes
hands its best and its failure to the next."""

from pathlib import Path

import pytest

from agents.events import CheckRun, FileChanged, Notice
from tests.crew_script import crew, events, files, notices

BUGGY = "def total(xs):\n    t = 0\n    for x in xs:\n        t = x\n    return t\n"
RIGHT = "def total(xs):\n    t = 0\n    for x in xs:\n        t += x\n    return t\n"
WRONG = "def total(xs):\n    t = 1\n    for x in xs:\n        t += x\n    return t\n"
HALF = "def total(xs):\n    t = 0\n    for x in xs:\n        t += abs(x)\n    return t\n"  # positives only
OTHER = "def double(x):\n    return 2 * x\n"
TESTS = (
    "from calc import total\n\n\n"
    "def test_total():\n    assert total([1, 2, 3]) == 6\n\n\n"
    "def test_total_negative():\n    assert total([-1, -2]) == -3\n\n\n"
    "def test_one():\n    assert total([5]) == 5\n"
)
REQUEST = "The tests in test_calc.py fail, fix calc.py."


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "calc.py").write_text(BUGGY)
    (tmp_path / "other.py").write_text(OTHER)
    (tmp_path / "test_calc.py").write_text(TESTS)
    return tmp_path


def test_the_candidate_that_passes_the_failing_tests_is_kept(project: Path) -> None:
    replies = [files(("calc.py", c)) for c in (BUGGY, WRONG, RIGHT, HALF, WRONG)]
    summary, bus, engine = crew(project, REQUEST, coder=replies, rounds=3)
    assert summary.approved, (summary.message, summary.checks)
    assert (project / "calc.py").read_text() == RIGHT
    assert summary.rounds_used == 2
    first, *batch = engine.calls_of("coder")
    assert first.gen.temperature == 0  # round 1: the greedy answer alone
    assert len(batch) == 4 and all(c.messages == batch[0].messages for c in batch)  # decoded together
    assert all(c.gen.temperature > 0 for c in batch) and len({c.gen.seed for c in batch}) == 4
    said = notices(bus)
    assert any("Round 1 of 3: one answer first" in n for n in said)
    assert any("Round 2 of 3: 4 candidates decoded together" in n for n in said)
    assert any("Candidate 1 of 4 fails" in n for n in said)
    assert any("Candidate 2 of 4 passes" in n for n in said)
    assert not any("Candidate 3" in n for n in said)  # the run stopped at the first that passed


def test_a_greedy_answer_that_passes_ends_the_run_without_a_batch(project: Path) -> None:
    summary, _, engine = crew(project, REQUEST, coder=[files(("calc.py", RIGHT))] * 5, rounds=3)
    assert summary.approved and summary.rounds_used == 1
    assert len(engine.calls_of("coder")) == 1


def test_the_failing_tests_run_first_and_the_suite_only_for_a_candidate_that_passes_them(
    project: Path,
) -> None:
    replies = [files(("calc.py", c)) for c in (BUGGY, WRONG, RIGHT, WRONG, WRONG)]
    _, bus, _ = crew(project, REQUEST, coder=replies, rounds=2)
    runs = [c.command for c in events(bus, CheckRun)]
    judged = [i for i, c in enumerate(runs) if c == "the failing tests"]
    suites = [i for i, c in enumerate(runs) if c != "the failing tests"]
    # Round 2: candidate 1's failing tests alone, candidate 2's, then its suite.
    assert len(judged) == 3
    assert not any(judged[1] < s < judged[2] for s in suites)
    assert any(s > judged[2] for s in suites)


def test_a_failing_candidate_leaves_nothing_on_disk(project: Path) -> None:
    # Round 2's candidate 1 rewrites other.py too; candidate 2 writes calc.py alone and passes.
    half_written = files(("calc.py", WRONG), ("other.py", "def double(x):\n    return x + x + 1\n"))
    replies = [files(("calc.py", BUGGY)), half_written, files(("calc.py", RIGHT))] + [
        files(("calc.py", BUGGY))
    ] * 2
    request = "Fix calc.py and other.py so the tests in test_calc.py pass."
    summary, bus, _ = crew(project, request, coder=replies, rounds=2)
    assert any(e.path == "other.py" for e in events(bus, FileChanged))  # the write did happen
    assert summary.approved, summary.checks
    assert (project / "other.py").read_text() == OTHER
    assert (project / "calc.py").read_text() == RIGHT


def test_a_round_none_of_whose_candidates_passes_hands_its_best_to_the_next(project: Path) -> None:
    round_2 = [files(("calc.py", c)) for c in (WRONG, HALF, WRONG, BUGGY)]
    round_3 = [files(("calc.py", RIGHT))] + [files(("calc.py", WRONG))] * 3
    summary, bus, engine = crew(
        project, REQUEST, coder=[files(("calc.py", BUGGY)), *round_2, *round_3], rounds=3
    )
    assert summary.approved and summary.rounds_used == 3
    third = engine.calls_of("coder")[5]
    # HALF passes two of the three tests: the next round is shown it, and how it still fails.
    assert "abs(x)" in third.last and "gave 3; the test expects -3" in third.last
    assert any("starts from candidate 2" in n for n in notices(bus))


def test_a_round_none_passes_puts_its_files_back_before_the_best_goes_on_disk(project: Path) -> None:
    replies = [files(("calc.py", c)) for c in (BUGGY, WRONG, HALF, BUGGY, WRONG)]
    summary, _, _ = crew(project, REQUEST, coder=replies, rounds=2)
    assert not summary.approved
    assert (project / "calc.py").read_text() == HALF  # the best, not the last candidate tried


def test_switched_off_round_one_is_one_greedy_answer_as_before(project: Path) -> None:
    replies = [files(("calc.py", WRONG)), files(("calc.py", RIGHT)), files(("calc.py", RIGHT))]
    summary, bus, engine = crew(
        project, REQUEST, coder=replies, rounds=3, without=frozenset({"test_judged_candidates"})
    )
    assert summary.approved and summary.rounds_used == 2
    calls = engine.calls_of("coder")
    assert len(calls) == 2 and calls[0].messages != calls[1].messages  # one answer a round
    assert not any("candidates together" in n for n in notices(bus))
    assert not any(isinstance(e, Notice) and "Candidate" in e.message for e in bus.history)


def test_a_candidate_with_the_same_code_as_an_earlier_one_is_not_run_again(project: Path) -> None:
    # In the IDE all four candidates of a round wrote the same file, and each ran the tests.
    again = WRONG.replace("    return t\n", "    return t  # the sum\n")  # another reply, the same code
    replies = [files(("calc.py", c)) for c in (BUGGY, WRONG, again, RIGHT, HALF)]
    summary, bus, _ = crew(project, REQUEST, coder=replies, rounds=3)
    assert summary.approved and (project / "calc.py").read_text() == RIGHT
    said = notices(bus)
    assert any("Candidate 2 of 4 writes the same code as an earlier one" in n for n in said)
    assert not any("Candidate 2 of 4 fails" in n for n in said)  # its tests did not run
    assert any("Candidate 3 of 4 passes" in n for n in said)
