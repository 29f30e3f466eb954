import csv
import hashlib
from pathlib import Path

import main
import pytest
from load import read_products
from report import value_by_category
from test_report import test_out_of_stock, test_total_value  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_report.py": "a9eabf23aaeff6236a7547267c4a2f6178499eaa3deda46925c2b8eb4b3fd6db", "load.py": "a9565a6afeacb52ef93f2a8718f7576e16d517d10ceb3eaddfd387d750c5f732", "main.py": "6101f69f81fd7d7ee214886937321ceb4ac82f6c6c6b5dbe5e3a6ce721852821"}
BEFORE = {
    "apple": ("0.40", "120"),
    "banana": ("0.25", "200"),
    "hammer": ("12.50", "8"),
    "pear": ("0.55", "60"),
    "saw": ("18.00", "5"),
}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def _rows():
    with open(HERE / "products.csv", newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_the_csv_has_categories_and_keeps_its_data():
    rows = _rows()
    assert {r["name"].strip(): (r["price"].strip(), r["qty"].strip()) for r in rows} == BEFORE
    category = {r["name"].strip(): r["category"].strip().lower() for r in rows}
    assert category == {"apple": "fruit", "banana": "fruit", "pear": "fruit", "hammer": "tools", "saw": "tools"}


def test_value_by_category():
    totals = {k.strip().lower(): v for k, v in value_by_category(read_products(str(HERE / "products.csv"))).items()}
    assert set(totals) == {"fruit", "tools"}
    assert totals["fruit"] == pytest.approx(48 + 50 + 33)
    assert totals["tools"] == pytest.approx(100 + 90)


def test_main_still_runs(capsys):
    main.main(str(HERE / "products.csv"))
    assert "5 products, stock worth 321.00" in capsys.readouterr().out
