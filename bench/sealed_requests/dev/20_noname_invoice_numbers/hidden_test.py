import hashlib
from pathlib import Path

import pytest
from ledger import Ledger
from numbering import format_number, next_number, parse_number
from pdf_names import file_name
from test_ledger import test_numbers_go_up  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_ledger.py": "49c9f1e9022d7639ba9e590f4efdd39ed0df10f54177af60120950c9319507e6", "ledger.py": "366177443182606f33117b2965f7d8baccdc810bb51d73e09fb16ad930afa6e1", "pdf_names.py": "d28c83dc6f4f696c08058dc1cbb4987fab9495fcde2668307d48a40be7b06871"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_padded():
    assert format_number(42) == "INV-00042"
    assert format_number(1) == "INV-00001"
    assert next_number(None) == "INV-00001"
    assert next_number("INV-00041") == "INV-00042"


def test_old_numbers_still_read():
    assert parse_number("INV-42") == 42
    assert parse_number("INV-00042") == 42
    assert next_number("INV-99") == "INV-00100"
    with pytest.raises(ValueError):
        parse_number("42")


def test_the_ledger_and_file_names():
    ledger = Ledger(last="INV-7")
    assert ledger.issue("Acme", 3) == "INV-00008"
    assert file_name("INV-00008", "Acme Ltd") == "8_acme_ltd.pdf"
