from geo import midpoint


def test_midpoint():
    assert midpoint((0, 0), (10, 20)) == (5, 10)
