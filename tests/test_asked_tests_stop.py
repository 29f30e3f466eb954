"""Rule asked_tests_stop: asked for tests that fail on code the run did not change, the run stops
rather than bend the tests or the code (the 1.5B copied mean() into the test file)."""

from pathlib import Path

from tests.crew_script import crew, files

STATS = "def mean(xs):\n    return sum(xs) / (len(xs) + 1)\n"
TESTS = "from stats import mean\n\n\ndef test_mean():\n    assert mean([1, 3]) == 2\n"
REQUEST = "Write pytest tests for mean() in stats.py in test_stats.py."


def _run(tmp_path: Path, without: frozenset[str]):
    (tmp_path / "stats.py").write_text(STATS)
    return crew(
        tmp_path,
        REQUEST,
        coder=[files(("test_stats.py", TESTS))] * 4,
        rounds=2,
        without=without | {"plain_retry"},
    )


def test_the_run_stops_and_says_why(tmp_path: Path) -> None:
    summary, _, _ = _run(tmp_path, frozenset())
    assert summary.rounds_used == 1 and "the tests ran, and fail on code this run did not" in summary.message


def test_switched_off_it_goes_on(tmp_path: Path) -> None:
    summary, _, _ = _run(tmp_path, frozenset({"asked_tests_stop"}))
    assert summary.rounds_used == 2
