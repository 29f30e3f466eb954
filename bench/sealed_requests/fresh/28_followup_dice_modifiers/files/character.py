"""Ability scores for a new character: 4d6, the lowest die dropped, six times."""

import random

from dice import roll_each

ABILITIES = ("STR", "DEX", "CON", "INT", "WIS", "CHA")


def ability_score(rng=random):
    dice = sorted(roll_each("4d6", rng))
    return sum(dice[1:])


def new_character(rng=random):
    return {ability: ability_score(rng) for ability in ABILITIES}
