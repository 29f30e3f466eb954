import hashlib
from pathlib import Path

import pytest
from chapters import parse_heading, table_of_contents
from roman import from_roman, to_roman
from test_chapters import test_heading  # noqa: F401
from test_roman import test_from_roman, test_garbage, test_round_trip, test_to_roman  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_roman.py": "ca5eb7c941e3fb18e73de8af243a302aff0dbd6ee38ee027d322e511c1898834", "test_chapters.py": "bd12d1c052e6cb299f3f5edc7743b8d4537c059e0b491954e76e579c7f74a931", "chapters.py": "7b1078620870e2fcf900d0cf1852acbf26d63eea1d88c4c55bef6066584111f0"}


def test_the_tests_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_more_numerals():
    assert from_roman("II") == 2
    assert from_roman("XXXIX") == 39
    assert from_roman(" cdxliv ") == 444
    assert from_roman("MMMCMXCIX") == 3999
    for n in (1, 8, 49, 888, 2000, 3888):
        assert from_roman(to_roman(n)) == n
    for bad in ("IC", "XXXX", "MMMM"):
        with pytest.raises(ValueError):
            from_roman(bad)


def test_chapter_headings():
    assert parse_heading("Chapter XXIII: The Long Walk") == (23, "The Long Walk")
    assert parse_heading("Once upon a time") is None
    lines = ["Chapter II. Rain", "text", "chapter iii: Sun"]
    assert [row.split(None, 1)[0] for row in table_of_contents(lines)] == ["2", "3"]
