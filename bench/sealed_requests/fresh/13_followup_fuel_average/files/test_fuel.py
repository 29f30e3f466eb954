from datetime import date

import pytest
from fuel import FillUp, consumption, cost_per_km


def test_consumption():
    a = FillUp(date(2025, 1, 1), 10000, 40.0)
    b = FillUp(date(2025, 1, 15), 10500, 30.0)
    assert consumption(a, b) == 6.0


def test_odometer_must_go_up():
    a = FillUp(date(2025, 1, 1), 10000, 40.0)
    with pytest.raises(ValueError):
        consumption(a, a)


def test_cost_per_km():
    assert cost_per_km(30.0, 1.8, 500) == 0.108
