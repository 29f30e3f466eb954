import pytest
from elo import expected, updated


def test_expected():
    assert expected(1500, 1500) == 0.5
    assert expected(1600, 1400) == pytest.approx(0.76, abs=0.01)


def test_equal_players():
    assert updated(1500, 1500, 1) == (1516, 1484)
    assert updated(1500, 1500, 0.5) == (1500, 1500)


def test_favourite_wins():
    assert updated(1600, 1400, 1) == (1608, 1392)


def test_upset():
    assert updated(1600, 1400, 0) == (1576, 1424)


def test_bad_score():
    with pytest.raises(ValueError):
        updated(1500, 1500, 2)
