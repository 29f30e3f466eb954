import hashlib
from pathlib import Path

import pytest
import store
from shortener import Shortener
from test_codes import test_round_trip, test_small_numbers  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_codes.py": "7db7c350600471d26694839cc0ccc80390eeab117a6f394a80619c721bbb222d", "codes.py": "33ea5eec4536d91ce378d5afe9c45005a43bf9ccbfe2c30c810a88357751121f", "store.py": "4db87b46bff5a2b86ccce060a2dcf4000367bfdd03fe6eba925fefee6a16a712"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_the_same_url_gets_the_same_code():
    s = Shortener()
    first = s.shorten("https://example.com/a")
    other = s.shorten("http://example.com/b")
    assert s.shorten("https://example.com/a") == first
    assert other != first and len(s) == 2
    assert s.expand(first) == "https://example.com/a"


@pytest.mark.parametrize("url", ["ftp://example.com", "example.com", "www.example.com", "", "javascript:alert(1)"])
def test_other_schemes_are_refused(url):
    with pytest.raises(ValueError):
        Shortener().shorten(url)


def test_spaces_around_are_stripped():
    s = Shortener()
    code = s.shorten("  https://example.com/x ")
    assert s.expand(code) == "https://example.com/x"
    assert s.shorten("https://example.com/x") == code
    assert s.shorten("https://example.com/x\n") == code
    with pytest.raises(ValueError):
        s.shorten("  ftp://example.com ")


def test_saved_and_loaded(tmp_path):
    s = Shortener()
    code = s.shorten("https://example.com/y")
    store.save(s, tmp_path / "urls.json")
    again = store.load(tmp_path / "urls.json")
    assert again.expand(code) == "https://example.com/y"
    assert again.shorten("https://example.com/y") == code
