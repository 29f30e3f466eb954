import hashlib
from pathlib import Path

import pytest
from members import Member
from seed import starter_library
from test_library import test_find_by_author, test_member_limit, test_no_duplicates  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_library.py": "28f5adf1c4867eb544609f5217e6416d01904c53924e13044bf06b1ea065fdd5", "members.py": "0b95a7ab887b7b9e390d552c979c14243554af1c71aa190d6e4c896ef9176ce7", "seed.py": "db103d3dcb7b47691f8b49520d347efe3c9fbb2dc4d466d22dabcdf48d37ad7e"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_checkout_and_return():
    library = starter_library()
    assert sorted(library.available()) == ["Dune", "Emma", "Persuasion", "Solaris"]
    library.checkout("Emma")
    library.checkout("Dune")
    assert sorted(library.available()) == ["Persuasion", "Solaris"]
    library.return_book("Emma")
    assert sorted(library.available()) == ["Emma", "Persuasion", "Solaris"]
    assert len(library) == 4


def test_checking_out_twice_or_a_missing_book_raises():
    library = starter_library()
    library.checkout("Solaris")
    with pytest.raises(ValueError):
        library.checkout("Solaris")
    with pytest.raises(ValueError):
        library.checkout("Ulysses")
    library.return_book("Solaris")
    library.checkout("Solaris")


def test_libraries_do_not_share_state():
    first, second = starter_library(), starter_library()
    first.checkout("Dune")
    assert "Dune" in second.available()
    assert Member("Al").can_borrow()
