import pytest
from median import median


def test_median():
    assert median([3, 1, 2]) == 2
    assert median([4, 1, 3, 2]) == pytest.approx(2.5)
    assert median([7]) == 7


def test_the_list_is_not_changed():
    numbers = [3, 1, 2]
    median(numbers)
    assert numbers == [3, 1, 2]


def test_empty():
    with pytest.raises(ValueError):
        median([])
