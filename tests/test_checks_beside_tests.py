"""Rule checks_beside_tests (off by default, not yet measured): in a project with its own tests,
the asked behaviour is checked too. The project's tests alone approved a run that left the asked
function as it was, since nothing the project tested had changed."""

from pathlib import Path

from tests.crew_script import checks, crew, files

STATS = (
    "def mean(xs):\n    return sum(xs) / len(xs)\n\n\ndef median(xs):\n    return sorted(xs)[len(xs) // 2]\n"
)
TESTS = "from stats import mean\n\n\ndef test_mean():\n    assert mean([1, 2, 3]) == 2\n"
# The coder's answer: mean() reworded, median() untouched, so the project's tests still pass.
UNCHANGED_MEDIAN = STATS.replace("return sum(xs) / len(xs)", "return sum(xs) / max(len(xs), 1)")
REQUEST = "median() in stats.py is wrong for an even number of values: median([1, 2, 3, 4]) is 2.5."


def _run(tmp_path: Path, with_: frozenset[str]):
    (tmp_path / "stats.py").write_text(STATS)
    (tmp_path / "test_stats.py").write_text(TESTS)
    return crew(
        tmp_path,
        REQUEST,
        coder=[files(("stats.py", UNCHANGED_MEDIAN))],
        reviewer=[checks("assert median([1, 2, 3, 4]) == 2.5"), "```python\n2.5\n```"],
        with_=with_,
    )


def test_the_asked_behaviour_is_checked_beside_the_projects_tests(tmp_path: Path) -> None:
    summary, _, engine = _run(tmp_path, frozenset({"checks_beside_tests"}))
    assert engine.calls_of("reviewer") and not summary.checks_passed and not summary.approved


def test_off_the_projects_tests_alone_approve_it(tmp_path: Path) -> None:
    summary, _, engine = _run(tmp_path, frozenset())
    assert not engine.calls_of("reviewer") and summary.checks_passed  # the false approval it is for
