import mathx
import pytest


def test_mean():
    assert mathx.mean([1, 2, 3]) == pytest.approx(2)
    assert mathx.mean([5]) == pytest.approx(5)
    assert mathx.mean([1, 2]) == pytest.approx(1.5)


def test_mean_of_nothing():
    with pytest.raises(ValueError):
        mathx.mean([])


def test_the_other_functions_stay():
    assert mathx.square(4) == 16
    assert mathx.cube(2) == 8
