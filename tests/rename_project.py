"""The rename the IDE was asked for in chromium (bench/results/2026-11-28-ide-use-rename), small:
by_author in catalog.py becomes books_by, and report.py, which imports it, must follow."""

from pathlib import Path

CATALOG = "def by_author(books, author):\n    return [b for b in books if b[1] == author]\n"
RENAMED = "def books_by(books, author):\n    return [b for b in books if b[1] == author]\n"
COUNT = "\n\ndef count(books, author):\n    return len({}(books, author))\n"
REPORT = "from catalog import by_author\n" + COUNT.format("by_author")
FIXED = "from catalog import books_by\n" + COUNT.format("books_by")
TESTS = "from report import count\n\n\ndef test_count():\n    assert count([('E', 'A')], 'A') == 1\n"
REQUEST = "Rename the function by_author in catalog.py to books_by and update every use."
# The rounds must end on these answers alone: no reviewer asserts, no extra rounds.
OFF = frozenset({"reviewer_checks", "plain_retry", "sampled_retries", "fresh_after_repeat"})


def make(root: Path) -> None:
    for name, text in {"catalog.py": CATALOG, "report.py": REPORT, "test_report.py": TESTS}.items():
        (root / name).write_text(text)
