"""Elo ratings for the club's chess games."""

K = 32


def expected(rating_a, rating_b):
    """The score player a is expected to get against player b (between 0 and 1)."""
    return 1 / (1 + 10 ** ((rating_b - rating_a) / 400))


def updated(rating_a, rating_b, score_a, k=K):
    """Both ratings after a game; score_a is 1 for a win of a, 0.5 for a draw, 0 for a loss."""
    if score_a not in (0, 0.5, 1):
        raise ValueError(f"a game ends 1, 0.5 or 0, not {score_a}")
    expected_a = expected(rating_a, rating_b)
    new_a = rating_a + k * (score_a - expected_a)
    new_b = rating_b + k * ((1 - score_a) - expected_a)
    return round(new_a), round(new_b)
