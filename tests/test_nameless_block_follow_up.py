"""Rule nameless_block_follow_up: a follow-up's code block without a file name goes to the file
the last run changed."""

from pathlib import Path

from tests.crew_script import FENCE, crew, files

STATS = "def mean(xs):\n    return sum(xs) / len(xs)\n"
FIXED = "def mean(xs):\n    if not xs:\n        return 0.0\n    return sum(xs) / len(xs)\n"


def _follow_up(tmp_path: Path, without: frozenset[str]) -> None:
    off = frozenset({"reviewer_checks", "plain_retry"})
    crew(tmp_path, "Write stats.py with mean(xs).", coder=[files(("stats.py", STATS))], without=off)
    crew(
        tmp_path,
        "Now return 0.0 for an empty list.",
        coder=[f"{FENCE}python\n{FIXED}{FENCE}"],
        without=off | without,
    )


def test_a_nameless_block_goes_to_the_last_runs_file(tmp_path: Path) -> None:
    _follow_up(tmp_path, frozenset())
    assert (tmp_path / "stats.py").read_text() == FIXED


def test_switched_off_it_goes_nowhere_near_stats_py(tmp_path: Path) -> None:
    _follow_up(tmp_path, frozenset({"nameless_block_follow_up"}))
    assert (tmp_path / "stats.py").read_text() == STATS
