import pytest
from inventory import Inventory


def test_add_and_count():
    inv = Inventory()
    inv.add("apple", 3)
    inv.add("apple", 2)
    inv.add("pear", 1)
    assert inv.count("apple") == 5
    assert inv.count("pear") == 1
    assert inv.count("plum") == 0


def test_remove():
    inv = Inventory()
    inv.add("apple", 3)
    inv.remove("apple", 2)
    assert inv.count("apple") == 1


def test_remove_too_many():
    inv = Inventory()
    inv.add("apple", 1)
    with pytest.raises(ValueError):
        inv.remove("apple", 2)
    with pytest.raises(ValueError):
        inv.remove("plum", 1)
    assert inv.count("apple") == 1
