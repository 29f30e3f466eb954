import hashlib
from pathlib import Path

import pytest
from addressbook import AddressBook
from importer import load_csv
from phones import normalize
from test_addressbook import test_found_however_it_is_typed, test_unknown_and_garbage  # noqa: F401
from test_phones import (  # noqa: F401
    test_already_international,
    test_double_zero_prefix,
    test_home_numbers,
    test_not_numbers,
    test_same_number,
)

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_phones.py": "cecb5c0bba12719c105a1829067f0893ab425206671c5ac0ca8d6de302fb22bb", "test_addressbook.py": "6db4c708397b2ee60ba84f5a4e4da7b9779e4754468c64324e2e9a1f83534621", "addressbook.py": "d51f162cc35c8957e80a673b1af8d59673ca4514879251baeb1aac4c4089102e", "importer.py": "baf9dfab29b2335fc7c1c69882486b9cdfc36d0e1509af1bb835b5af821f9ecc"}


def test_the_tests_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_more_numbers():
    assert normalize("0031 20 555 1234") == "+31205551234"
    assert normalize("00 1 415 555 2671") == "+14155552671"
    assert normalize("07700 900123") == "+447700900123"
    assert normalize("0049 30 1234567", home_prefix="+49") == "+49301234567"
    assert normalize("030 1234567", home_prefix="+49") == "+49301234567"
    with pytest.raises(ValueError):
        normalize("00")


def test_an_import_with_foreign_numbers(tmp_path):
    path = tmp_path / "contacts.csv"
    path.write_text("name,phone\nJonas,0049 30 1234567\nAmy,020 7946 0018\nBad,123\n", encoding="utf-8")
    book, skipped = load_csv(path)
    assert book.who_is("+49 30 1234567") == "Jonas"
    assert book.who_is("02079460018") == "Amy"
    assert skipped == ["Bad"]
    assert isinstance(book, AddressBook)
