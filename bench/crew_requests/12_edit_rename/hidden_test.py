import math

import geometry
import pytest


def test_circle_area():
    assert geometry.circle_area(2) == pytest.approx(4 * math.pi)


def test_the_old_name_is_gone():
    assert not hasattr(geometry, "area_circ")


def test_the_other_functions_stay():
    assert geometry.circumference(1) == pytest.approx(2 * math.pi)
    assert geometry.rectangle_area(2, 3) == 6
