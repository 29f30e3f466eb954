import pytest
from split import split_evenly


def test_even():
    assert split_evenly(90, 3) == [30, 30, 30]


def test_leftover_cents():
    assert split_evenly(100, 3) == [33.34, 33.33, 33.33]


def test_nobody():
    with pytest.raises(ValueError):
        split_evenly(10, 0)
