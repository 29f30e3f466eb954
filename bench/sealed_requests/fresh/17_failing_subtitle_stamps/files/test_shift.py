from shift import shift


def test_later():
    assert shift([(1000, 2000, "a")], 500) == [(1500, 2500, "a")]


def test_earlier_stops_at_zero():
    assert shift([(300, 2000, "a")], -500) == [(0, 1500, "a")]
