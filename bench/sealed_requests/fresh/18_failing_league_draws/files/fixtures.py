"""Who plays whom: every team meets every other team once."""

from itertools import permutations


def fixtures(teams):
    """[(home, away), ...] with each pair of teams once."""
    return list(permutations(teams, 2))


def matchdays(teams):
    """How many rounds a season has if each team plays once a round (an odd count adds a bye)."""
    n = len(teams) + len(teams) % 2
    return n - 1
