from fixtures import fixtures, matchdays

TEAMS = ["Rovers", "United", "City", "Athletic"]


def test_every_pair_once():
    games = fixtures(TEAMS)
    assert len(games) == 6
    assert len({frozenset(game) for game in games}) == 6


def test_matchdays():
    assert matchdays(TEAMS) == 3
    assert matchdays(TEAMS[:3]) == 3
