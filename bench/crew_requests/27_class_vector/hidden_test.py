import pytest
from vector import Vector


def test_add_and_subtract():
    assert Vector(1, 2) + Vector(3, 4) == Vector(4, 6)
    assert Vector(5, 5) - Vector(1, 2) == Vector(4, 3)


def test_equality():
    assert Vector(1, 2) == Vector(1, 2)
    assert Vector(1, 2) != Vector(2, 1)


def test_length_and_coordinates():
    v = Vector(3, 4)
    assert (v.x, v.y) == (3, 4)
    assert v.length() == pytest.approx(5)
