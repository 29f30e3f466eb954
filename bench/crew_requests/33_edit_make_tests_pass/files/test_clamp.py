from clamp import clamp


def test_below_the_range():
    assert clamp(-5, 0, 10) == 0


def test_above_the_range():
    assert clamp(15, 0, 10) == 10


def test_inside_the_range():
    assert clamp(5, 0, 10) == 5
