import csv

import inventory
import pytest

ROWS = (
    "name,category,price,qty\n"
    '"Bolt, small",hardware,0.25,40\n'
    "Hammer,tools,12.5,2\n"
    '"Nut, large",hardware,0.5,10\n'
    "Saw,tools,20,1\n"
    "Glue,supplies,3.75,4\n"
)


def test_totals_by_category(tmp_path):
    source = tmp_path / "stock.csv"
    source.write_text(ROWS, encoding="utf-8")
    totals = inventory.total_by_category(str(source))
    assert set(totals) == {"hardware", "tools", "supplies"}
    assert totals["hardware"] == pytest.approx(15.0)
    assert totals["tools"] == pytest.approx(45.0)
    assert totals["supplies"] == pytest.approx(15.0)


def test_write_totals(tmp_path):
    target = tmp_path / "totals.csv"
    inventory.write_totals({"tools": 45.0, "hardware": 15.5, "supplies": 2.0}, str(target))
    with open(target, newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        rows = list(reader)
    assert reader.fieldnames == ["category", "total"]
    assert [row["category"] for row in rows] == ["hardware", "supplies", "tools"]
    assert [float(row["total"]) for row in rows] == pytest.approx([15.5, 2.0, 45.0])
