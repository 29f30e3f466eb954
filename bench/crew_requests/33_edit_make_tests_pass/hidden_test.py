import clamp


def test_clamp():
    assert clamp.clamp(-5, 0, 10) == 0
    assert clamp.clamp(15, 0, 10) == 10
    assert clamp.clamp(5, 0, 10) == 5
    assert clamp.clamp(0, 0, 10) == 0
    assert clamp.clamp(2.5, 1.0, 2.0) == 2.0


def test_in_range_stays():
    assert clamp.in_range(5, 0, 10)
    assert not clamp.in_range(11, 0, 10)
