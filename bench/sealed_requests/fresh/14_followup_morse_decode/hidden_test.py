import hashlib
from pathlib import Path

import blink
from morse import decode, encode
from test_blink import test_duration, test_timings  # noqa: F401
from test_morse import test_digits, test_sos, test_words  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_morse.py": "f34e406b6fc282d0dcffe2810798f2381d442669232c25173e871b29b0f60c6a", "test_blink.py": "51f8be56a24e9b3e979b06e60f5a85ff8fbe94d74d677783f7b48c967e853b44", "blink.py": "c6c76eb1a01f3001c0a1acd864390d97cb011e603a02a91f702c0fca920afd10"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_decode():
    assert decode("... --- ...").upper() == "SOS"
    assert decode(".... .. / - .... . .-. .").upper() == "HI THERE"
    for text in ("HELLO WORLD", "R2D2 AND C3PO", "THE QUICK BROWN FOX 1984"):
        assert decode(encode(text)).upper() == text


def test_encode_lowercase_and_unknown_characters():
    assert encode("sos") == encode("SOS")
    assert encode("Hi There") == encode("HI THERE")
    assert encode("hi, there!") == encode("HI THERE")
    assert encode("r2-d2") == encode("R2D2")
    assert decode(encode("good morning, sunshine!")).upper() == "GOOD MORNING SUNSHINE"
    assert blink.duration(encode("e")) == 120
