import pytest
from phones import normalize, same_number


def test_home_numbers():
    assert normalize("020 7946 0018") == "+442079460018"
    assert normalize("(0161) 496-0000") == "+441614960000"


def test_already_international():
    assert normalize("+44 20 7946 0018") == "+442079460018"
    assert normalize("+1 202-555-0143") == "+12025550143"


def test_double_zero_prefix():
    assert normalize("0049 30 1234567") == "+49301234567"
    assert normalize("0033 1 23 45 67 89") == "+33123456789"


def test_not_numbers():
    for bad in ("", "call me", "12", "+44 20 +7946"):
        with pytest.raises(ValueError):
            normalize(bad)


def test_same_number():
    assert same_number("020 7946 0018", "+44 20 7946 0018")
    assert not same_number("020 7946 0018", "020 7946 0019")
