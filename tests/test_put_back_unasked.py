"""Rule put_back_unasked: a function the run changed unasked is put back where every check still
passes without the change (asked to fix one function, the 1.5B rewrote another too)."""

from pathlib import Path

from tests.crew_script import checks, crew, files, notices

COUNTING = (
    "def count_words(text):\n    return len(text.split(' '))\n\n\n"
    "def shout(text):\n    return text.upper()  # kept as it is\n"
)
# shout()'s code changed too: a comment dropped alone is put back as the answer is written.
FIXED = COUNTING.replace("text.split(' ')", "text.split()").replace(
    "return text.upper()  # kept as it is", "return str(text).upper()"
)
CHECKS = checks("assert count_words('a  b') == 2", "assert count_words('') == 0", "assert shout('a') == 'A'")
REQUEST = "count_words in words.py miscounts several spaces. Fix it."


def _run(tmp_path: Path, without: frozenset[str]):
    (tmp_path / "words.py").write_text(COUNTING)
    return crew(tmp_path, REQUEST, coder=[files(("words.py", FIXED))], reviewer=[CHECKS], without=without)


def test_the_unasked_change_is_put_back(tmp_path: Path) -> None:
    summary, bus, _ = _run(tmp_path, frozenset())
    assert summary.approved and any("Put back shout" in n for n in notices(bus))
    assert "# kept as it is" in (tmp_path / "words.py").read_text()


def test_switched_off_it_stays(tmp_path: Path) -> None:
    summary, bus, _ = _run(tmp_path, frozenset({"put_back_unasked"}))
    assert summary.approved and "# kept as it is" not in (tmp_path / "words.py").read_text()


STATS = (
    "def mean(xs):\n    return sum(xs) / len(xs)\n\n\n"
    "def median(xs):\n    return sorted(xs)[len(xs) // 2]\n\n\n"
    "def spread(xs):\n    return max(xs) - min(xs)  # the user's own\n"
)
STATS_TESTS = (
    "from stats import mean, median, spread\n\n\n"
    "def test_mean():\n    assert mean([1, 2, 3]) == 2\n\n\n"
    "def test_median_even():\n    assert median([1, 2, 3, 4]) == 2.5\n\n\n"
    "def test_spread():\n    assert spread([1, 5]) == 4\n"
)
# The follow-up's right fix of median(), with mean() and spread() rewritten unasked (as the 0.5B did).
STATS_FIXED = (
    "def mean(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total / len(xs)\n\n\n"
    "def median(xs):\n    s = sorted(xs)\n    n = len(s)\n"
    "    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2\n\n\n"
    "def spread(xs):\n    return sorted(xs)[-1] - sorted(xs)[0]\n"
)
MEDIAN_REQUEST = "median() in stats.py is wrong for an even number of values. Fix it."


def _stats_run(tmp_path: Path, without: frozenset[str]):
    (tmp_path / "stats.py").write_text(STATS)
    (tmp_path / "test_stats.py").write_text(STATS_TESTS)
    return crew(tmp_path, MEDIAN_REQUEST, coder=[files(("stats.py", STATS_FIXED))], without=without)


def test_where_the_projects_tests_are_the_checks_they_judge_the_put_back(tmp_path: Path) -> None:
    summary, bus, _ = _stats_run(tmp_path, frozenset())
    text = (tmp_path / "stats.py").read_text()
    assert summary.checks_passed, summary.message
    assert "max(xs) - min(xs)  # the user's own" in text and "return sum(xs) / len(xs)" in text
    assert "(s[n // 2 - 1] + s[n // 2]) / 2" in text  # the asked fix stays
    assert any("Put back mean, spread in stats.py" in n for n in notices(bus))
    assert (tmp_path / "test_stats.py").read_text() == STATS_TESTS


def test_a_put_back_that_fails_a_test_is_not_made(tmp_path: Path) -> None:
    # mean() is changed unasked, but the project's test of mean now needs the change: it stays.
    tests = STATS_TESTS.replace("assert mean([1, 2, 3]) == 2", "assert mean([]) == 0")
    fixed = STATS_FIXED.replace("    return total / len(xs)", "    return total / len(xs) if xs else 0")
    (tmp_path / "stats.py").write_text(STATS)
    (tmp_path / "test_stats.py").write_text(tests)
    summary, bus, _ = crew(tmp_path, MEDIAN_REQUEST, coder=[files(("stats.py", fixed))])
    text = (tmp_path / "stats.py").read_text()
    assert "if xs else 0" in text and "max(xs) - min(xs)  # the user's own" in text
    assert any("Put back spread in stats.py" in n for n in notices(bus))


LEDGER = (
    "class Ledger:\n    def __init__(self):\n        self.items = []\n\n"
    "    def add(self, amount):\n        self.items.append(amount)\n\n"
    "    def total(self):\n        return sum(self.items)  # the user's own\n"
)
LEDGER_TESTS = (
    "from ledger import Ledger\n\n\n"
    "def test_total():\n    book = Ledger()\n    book.add(2)\n    book.add(3)\n    assert book.total() == 5\n"
)
# remove() as asked, and total() rewritten unasked (a held-out follow-up's 1.5B did so).
LEDGER_NOW = LEDGER.replace("return sum(self.items)  # the user's own", "return float(sum(self.items))") + (
    "\n    def remove(self, index):\n        return self.items.pop(index)\n"
)


def test_a_method_changed_unasked_is_put_back_where_the_tests_allow(tmp_path: Path) -> None:
    (tmp_path / "ledger.py").write_text(LEDGER)
    (tmp_path / "test_ledger.py").write_text(LEDGER_TESTS)
    request = "Add a method remove(index) to Ledger in ledger.py that returns the removed amount."
    summary, bus, _ = crew(tmp_path, request, coder=[files(("ledger.py", LEDGER_NOW))])
    text = (tmp_path / "ledger.py").read_text()
    assert "return sum(self.items)  # the user's own" in text and "def remove(self, index)" in text
    assert any("Put back Ledger.total in ledger.py" in n for n in notices(bus)), notices(bus)
