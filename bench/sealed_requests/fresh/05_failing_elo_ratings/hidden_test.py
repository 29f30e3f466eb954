import hashlib
from pathlib import Path

import leaderboard
from club import play, replay
from elo import updated
from test_elo import test_bad_score, test_equal_players, test_expected, test_favourite_wins, test_upset  # noqa: F401
from test_leaderboard import test_top  # noqa: F401

HERE = Path(__file__).resolve().parent
# test_leaderboard.py's test_ties_share_a_rank fails too, for a reason of its own (ranked numbers
# tied players one after the other); the request is about test_elo.py.
UNCHANGED = {"test_elo.py": "4fd925df2d5d5ad4a236775f77d13ce9d47c2ffd3c38a84d5276a16a79d82237", "test_leaderboard.py": "4d66239f3c511936d375f9a0af7342168c474249b97cedc33cdad244aede6d62", "club.py": "c2bbd5662fdad0d0593f13954c88a21f8ed6370db437f72306f1a5d24da713f4"}


def test_the_tests_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_what_one_wins_the_other_loses():
    for a, b in ((1700, 1500), (1450, 1800), (2000, 1200), (1500, 1500)):
        for score in (0, 0.5, 1):
            new_a, new_b = updated(a, b, score)
            assert abs((new_a - a) + (new_b - b)) <= 1, (a, b, score)
    assert updated(1400, 1600, 1) == (1424, 1576)
    assert updated(1800, 1450, 0.5, k=16) == (1794, 1456)


def test_the_club_ratings():
    ratings = replay([("ann", "bo", "1-0"), ("bo", "cy", "1/2-1/2")])
    assert ratings == {"ann": 1216, "bo": 1185, "cy": 1199}
    play(ratings, "di", "ann", "0-1")
    assert ratings["di"] < 1200 < ratings["ann"]
    assert leaderboard.top(ratings, 1) == ["ann"]
