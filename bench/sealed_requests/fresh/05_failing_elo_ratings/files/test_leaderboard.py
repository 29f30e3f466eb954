from leaderboard import ranked, top


def test_top():
    assert top({"ann": 1310, "bo": 1250, "cy": 1400, "di": 1100}) == ["cy", "ann", "bo"]


def test_ties_share_a_rank():
    ratings = {"ann": 1300, "bo": 1250, "cy": 1300, "di": 1200}
    assert [r[0] for r in ranked(ratings)] == [1, 1, 3, 4]
