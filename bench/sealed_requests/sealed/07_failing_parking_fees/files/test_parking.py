import pytest
from parking import fee


def test_free_half_hour():
    assert fee(0) == 0
    assert fee(30) == 0


def test_every_started_hour_counts():
    assert fee(31) == 200
    assert fee(60) == 200
    assert fee(61) == 400
    assert fee(150) == 600


def test_day_cap():
    assert fee(23 * 60) == 1500
    assert fee(24 * 60 + 45) == 1700


def test_negative():
    with pytest.raises(ValueError):
        fee(-1)
