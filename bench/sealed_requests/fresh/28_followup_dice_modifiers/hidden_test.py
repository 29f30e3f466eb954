import hashlib
import random
from pathlib import Path

import character
import pytest
from dice import roll
from test_dice import test_character, test_parse, test_rolls_are_in_range  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_dice.py": "58c4cac26e742f9c3506e1e3bde8c0fecedbc6a7ed88109f83e2fede55f19014", "character.py": "48b73c24f578692956aa814fcdad8d455fe676d3f9a2c751ded66f0ce629380b"}


class Highest:
    def randint(self, low, high):
        return high


class Lowest:
    def randint(self, low, high):
        return low


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


@pytest.mark.parametrize(
    ("spec", "low", "high"),
    [("2d6+3", 5, 15), ("1d20-1", 0, 19), ("3d6", 3, 18), ("4d4+10", 14, 26), (" 2D8-2 ", 0, 14)],
)
def test_modifiers(spec, low, high):
    assert roll(spec, Lowest()) == low
    assert roll(spec, Highest()) == high


@pytest.mark.parametrize(("spec", "low", "high"), [("d20", 1, 20), ("d8+2", 3, 10), ("D6", 1, 6), ("d4-1", 0, 3)])
def test_the_count_defaults_to_one(spec, low, high):
    assert roll(spec, Lowest()) == low
    assert roll(spec, Highest()) == high


def test_random_rolls_stay_in_range():
    rng = random.Random(3)
    assert all(4 <= roll("d6+3", rng) <= 9 for _ in range(100))


@pytest.mark.parametrize("spec", ["2x6", "d", "0d6", "3d0", "2d6+", "", "six", "2d6+x", "d6d6", "-1d6"])
def test_nonsense_is_a_value_error(spec):
    with pytest.raises(ValueError):
        roll(spec, Highest())


def test_characters_still_roll():
    assert character.new_character(Highest()) == dict.fromkeys(character.ABILITIES, 18)
