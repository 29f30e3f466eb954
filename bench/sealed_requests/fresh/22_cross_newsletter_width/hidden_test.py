import hashlib
from pathlib import Path

import wrapping
from newsletter import ISSUE, build_newsletter
from sections import render_section
from test_newsletter import test_lines_fit, test_titles_and_items  # noqa: F401
from test_wrapping import test_bullet, test_long_word_alone, test_wrap  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_wrapping.py": "60685bc9170f9d8946214744ceaabd2a87d68d82667b7f1139feb471e09ab368", "test_newsletter.py": "0b126cacd38a43817cf188bf8980855da11fb69fc258bab07802f697466e3c54"}
WORDS = " ".join(["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing"] * 6)


def test_the_tests_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def _words(text):
    return [word for word in text.split() if word != "-"]


def test_a_narrow_newsletter():
    for width in (40, 30):
        text = build_newsletter(ISSUE, width=width)
        assert max(len(line) for line in text.splitlines()) <= width
        assert _words(text) == _words(build_newsletter(ISSUE))
    assert max(len(line) for line in build_newsletter(ISSUE, width=40).splitlines()) > 30


def test_the_default_is_as_before():
    text = build_newsletter(ISSUE)
    assert max(len(line) for line in text.splitlines()) > 40
    assert build_newsletter(ISSUE, width=72) == text


def test_a_section_with_a_width():
    section = {"title": "Notes", "text": WORDS, "items": [WORDS]}
    assert max(len(line) for line in render_section(section, 25)) <= 25
    assert max(len(line) for line in render_section(section)) > 25
    assert render_section(section) == render_section(section, 72)
    assert wrapping.wrap(WORDS, 20) == render_section({"title": "t", "text": WORDS}, 20)[2:]
