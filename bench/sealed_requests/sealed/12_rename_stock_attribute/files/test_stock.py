import pytest
from stock import StockItem
from warehouse import Warehouse


def test_ship_too_much():
    item = StockItem("S1", "screws")
    with pytest.raises(ValueError):
        item.ship(1)


def test_reorder_list():
    warehouse = Warehouse()
    warehouse.add("B", "bolts", 100)
    warehouse.add("N", "nuts", 2)
    assert warehouse.reorder_list() == ["N"]
