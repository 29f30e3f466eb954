import pytest
from pricing import apply_coupon


def test_no_coupon():
    assert apply_coupon(10.0) == 10.0


def test_coupon():
    assert apply_coupon(10.0, "TENOFF") == 9.0


def test_unknown_coupon():
    with pytest.raises(ValueError):
        apply_coupon(10.0, "FREE")
