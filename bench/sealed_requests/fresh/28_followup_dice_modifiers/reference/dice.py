"""Dice in the usual notation: '3d6' is three six-sided dice added up, '2d6+3' adds 3 to them,
'd20' is one twenty-sided die."""

import random
import re

_SPEC = re.compile(r"(\d*)d(\d+)(?:([+-])(\d+))?")


def parse_full(spec):
    """'2d6+3' -> (2, 6, 3); 'd20' -> (1, 20, 0); ValueError for anything else."""
    match = _SPEC.fullmatch(spec.strip().lower())
    if not match:
        raise ValueError(f"not a dice spec: {spec!r}")
    count = int(match.group(1)) if match.group(1) else 1
    sides = int(match.group(2))
    if count < 1 or sides < 1:
        raise ValueError(f"not a dice spec: {spec!r}")
    modifier = int(match.group(4)) if match.group(4) else 0
    return count, sides, -modifier if match.group(3) == "-" else modifier


def parse(spec):
    """'3d6' -> (3, 6)"""
    count, sides, _ = parse_full(spec)
    return count, sides


def roll_each(spec, rng=random):
    count, sides = parse(spec)
    return [rng.randint(1, sides) for _ in range(count)]


def roll(spec, rng=random):
    return sum(roll_each(spec, rng)) + parse_full(spec)[2]
