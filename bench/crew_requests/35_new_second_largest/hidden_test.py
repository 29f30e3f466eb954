from ranking import second_largest


def test_second_largest():
    assert second_largest([1, 5, 3]) == 3
    assert second_largest([5, 5, 4]) == 4
    assert second_largest([-1, -2]) == -2


def test_none_when_there_is_none():
    assert second_largest([7, 7]) is None
    assert second_largest([]) is None
