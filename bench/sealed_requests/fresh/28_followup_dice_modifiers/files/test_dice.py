import random

from character import ABILITIES, new_character
from dice import parse, roll, roll_each


def test_parse():
    assert parse("3d6") == (3, 6)
    assert parse(" 1D20 ") == (1, 20)


def test_rolls_are_in_range():
    rng = random.Random(7)
    for _ in range(200):
        assert 3 <= roll("3d6", rng) <= 18
    assert len(roll_each("5d4", rng)) == 5


def test_character():
    scores = new_character(random.Random(1))
    assert list(scores) == list(ABILITIES)
    assert all(3 <= score <= 18 for score in scores.values())
