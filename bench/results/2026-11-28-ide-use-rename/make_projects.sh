#!/usr/bin/env bash
# Two small projects under git: a 4-file library catalogue with its own tests, and a 1-file stats.
set -euo pipefail
A=${1:-/tmp/ulib}; B=${2:-/tmp/ustats}
rm -rf "$A" "$B"; mkdir -p "$A" "$B"
cat > "$A/books.py" <<'PY'
from dataclasses import dataclass


@dataclass
class Book:
    title: str
    author: str
    year: int


def parse_book(line: str) -> Book:
    """'Title; Author; 1999' -> Book."""
    title, author, year = (part.strip() for part in line.split(";"))
    return Book(title, author, int(year))
PY
cat > "$A/catalog.py" <<'PY'
from books import Book, parse_book


def load(lines: list[str]) -> list[Book]:
    return [parse_book(line) for line in lines if line.strip()]


def by_author(books: list[Book], author: str) -> list[Book]:
    return [b for b in books if b.author == author]


def newest(books: list[Book]) -> Book:
    return max(books, key=lambda b: b.year)
PY
cat > "$A/report.py" <<'PY'
from catalog import by_author, load, newest


def summary(lines: list[str], author: str) -> str:
    books = load(lines)
    mine = by_author(books, author)
    return f"{author}: {len(mine)} book(s); newest overall: {newest(books).title}"


if __name__ == "__main__":
    print(summary(["Dune; Herbert; 1965", "Emma; Austen; 1815"], "Austen"))
PY
cat > "$A/test_report.py" <<'PY'
from report import summary

LINES = ["Dune; Herbert; 1965", "Emma; Austen; 1815", "Persuasion; Austen; 1817"]


def test_summary_counts_the_authors_books():
    assert summary(LINES, "Austen").startswith("Austen: 2 book(s)")


def test_summary_names_the_newest():
    assert summary(LINES, "Austen").endswith("newest overall: Dune")
PY
cat > "$B/stats.py" <<'PY'
def mean(xs: list[float]) -> float:
    return sum(xs) / len(xs)
PY
for d in "$A" "$B"; do
  (cd "$d" && git init -q && git add -A && git -c user.email=u@x -c user.name=u commit -qm start)
done
