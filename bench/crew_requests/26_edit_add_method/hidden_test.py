import pytest
from cart import Cart


def test_remove_item():
    cart = Cart()
    cart.add_item("pen", 2.5)
    cart.add_item("book", 10)
    cart.remove_item("pen")
    assert cart.total() == 10
    assert cart.count() == 1


def test_remove_missing_item():
    with pytest.raises(KeyError):
        Cart().remove_item("pen")


def test_the_other_methods_stay():
    cart = Cart()
    cart.add_item("pen", 2)
    cart.add_item("ink", 3)
    assert cart.total() == 5
    assert cart.count() == 2
