"""Dice in the usual notation: '3d6' is three six-sided dice added up."""

import random


def parse(spec):
    """'3d6' -> (3, 6)"""
    count, sides = spec.strip().lower().split("d")
    return int(count), int(sides)


def roll_each(spec, rng=random):
    count, sides = parse(spec)
    return [rng.randint(1, sides) for _ in range(count)]


def roll(spec, rng=random):
    return sum(roll_each(spec, rng))
