import hashlib
import re
from pathlib import Path

from report import stock_lines
from stock import StockItem
from test_stock import test_reorder_list, test_ship_too_much  # noqa: F401
from warehouse import Warehouse

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_stock.py": "99aa6918c3711389719b7c2d8d28913b5ee24dc5998750454d2ccbe9b8a28bab"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_quantity():
    item = StockItem("W1", "washers", 10)
    item.receive(5)
    item.ship(3)
    assert item.quantity == 12
    assert not hasattr(item, "qty")
    assert not item.needs_reorder()


def test_no_code_uses_the_old_attribute():
    for path in HERE.glob("*.py"):
        if not path.name.startswith("test_"):
            assert not re.search(r"\.qty\b", path.read_text()), path.name


def test_the_warehouse_and_report():
    warehouse = Warehouse()
    warehouse.add("B", "bolts", 100)
    warehouse.add("N", "nuts", 2)
    warehouse.items["N"].receive(1)
    assert warehouse.units() == 103
    assert stock_lines(warehouse) == ["B bolts: 100", "N nuts: 3 (reorder)"]
