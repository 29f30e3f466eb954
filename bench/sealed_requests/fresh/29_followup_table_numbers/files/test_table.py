from pathlib import Path

from report import read_sales
from table import render


def test_text_columns():
    text = render(["name", "city"], [["Ann", "Oslo"], ["Bartholomew", None]])
    assert text.splitlines() == [
        "name        | city",
        "------------+-----",
        "Ann         | Oslo",
        "Bartholomew |",
    ]


def test_read_sales():
    totals = read_sales(Path(__file__).parent / "sales.csv")
    assert totals["notebook"] == (15, 67.5) and totals["stapler"] == (1, 8.99)
