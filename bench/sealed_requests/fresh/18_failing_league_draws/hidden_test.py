import hashlib
from pathlib import Path

import fixtures
from league import record, standings
from test_fixtures import test_matchdays  # noqa: F401
from test_league import test_a_draw_gives_both_a_point, test_a_win, test_standings  # noqa: F401

HERE = Path(__file__).resolve().parent
# test_fixtures.py's first test fails for a reason of its own (fixtures.py), which nobody asked about.
UNCHANGED = {"test_league.py": "5d8f870fa378a1b65a85346e160527194fd58de913ca045e5ba6e8b8da4206de", "test_fixtures.py": "6d88c390c2824aaa42df9df2b8c43d9551a3bac17bdd7dba75e17013ca33c644"}


def test_the_tests_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_a_short_season():
    table = {}
    record(table, "Ash", "Birch", 0, 0)
    record(table, "Birch", "Cedar", 2, 2)
    record(table, "Cedar", "Ash", 1, 0)
    record(table, "Birch", "Ash", 3, 3)
    assert {team: row["points"] for team, row in table.items()} == {"Ash": 2, "Birch": 3, "Cedar": 4}
    assert table["Birch"]["drawn"] == 3 and table["Birch"]["played"] == 3
    assert table["Ash"]["lost"] == 1 and table["Cedar"]["won"] == 1
    assert standings(table) == ["Cedar", "Birch", "Ash"]


def test_wins_still_count_three():
    table = {}
    record(table, "Ash", "Birch", 0, 1)
    assert table["Birch"]["points"] == 3 and table["Ash"]["points"] == 0
    assert fixtures.matchdays(["Ash", "Birch"]) == 1
