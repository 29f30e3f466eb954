import pytest
from grades import average, letter


def test_average():
    assert average([80, 90]) == 85


def test_average_of_nothing():
    with pytest.raises(ValueError):
        average([])


def test_letter():
    assert [letter(s) for s in (95, 85, 75, 65, 10)] == ["A", "B", "C", "D", "F"]
