import pytest
from cart import Cart


def test_total_counts_quantities():
    cart = Cart()
    cart.add("apple", 4)
    cart.add("bread")
    assert cart.total() == 4.25


def test_adding_twice_adds_up():
    cart = Cart()
    cart.add("milk")
    cart.add("milk", 2)
    assert cart.count() == 3
    assert cart.total() == 3.3


def test_unknown_product():
    with pytest.raises(KeyError):
        Cart().add("caviar")
