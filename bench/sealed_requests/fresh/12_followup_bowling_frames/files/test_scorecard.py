from scorecard import results, winner

GAMES = {"ana": [10] * 12, "bo": [1] * 20, "cy": [5] * 21}


def test_results():
    assert results(GAMES) == [("ana", 300), ("cy", 150), ("bo", 20)]


def test_winner():
    assert winner(GAMES) == "ana"
