import pytest
from timeparse import format_duration, parse_duration


def test_single_units():
    assert parse_duration("2h") == 7200
    assert parse_duration("45m") == 2700
    assert parse_duration("90s") == 90


def test_combined_units():
    assert parse_duration("1h30m") == 5400
    assert parse_duration("1h5m30s") == 3930


def test_not_a_duration():
    with pytest.raises(ValueError):
        parse_duration("soon")


def test_format():
    assert format_duration(5400) == "1h30m"
    assert format_duration(0) == "0s"
