import pytest
from roman import from_roman, to_roman


def test_to_roman():
    assert to_roman(1) == "I"
    assert to_roman(4) == "IV"
    assert to_roman(14) == "XIV"
    assert to_roman(1994) == "MCMXCIV"
    assert to_roman(2024) == "MMXXIV"


def test_from_roman():
    assert from_roman("III") == 3
    assert from_roman("XIV") == 14
    assert from_roman("mcmxciv") == 1994
    assert from_roman("MMXXIV") == 2024


def test_round_trip():
    for n in range(1, 400):
        assert from_roman(to_roman(n)) == n


def test_garbage():
    for bad in ("", "ABC", "IIII", "VX"):
        with pytest.raises(ValueError):
            from_roman(bad)
