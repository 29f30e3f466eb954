import hashlib
from pathlib import Path

import report
from table import render
from test_table import test_read_sales, test_text_columns  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_table.py": "f138170b39712a0f9c30d30f903109a757c6d06eec376a37ff2132e63c287a9b", "report.py": "418a37130339e2d8d309e459818f150f69562a645b7d2ea470e64e47a4f78406", "sales.csv": "6c61926d7accc31601c796e9c8774d136dbd20e471be1562a259a14fb25e07b2"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def _body(text):
    return text.splitlines()[2:]


def test_numbers_right_text_left():
    lines = _body(render(["item", "qty", "note"], [["apple", 3, "red"], ["kiwi", 12, "green"], ["fig", 120, "x"]]))
    assert [line.split()[0] for line in lines] == ["apple", "kiwi", "fig"]
    ends = [line.index(qty) + len(qty) for line, qty in zip(lines, ["3", "12", "120"])]
    assert len(set(ends)) == 1
    starts = [line.index(note) for line, note in zip(lines, ["red", "green", "x"])]
    assert len(set(starts)) == 1


def test_a_number_column_ending_the_line():
    lines = _body(render(["n"], [[5], [12345]]))
    assert len(lines[0]) == len(lines[1]) == 5
    assert lines[0].endswith("5") and lines[1] == "12345"


def test_floats_show_two_decimals():
    text = render(["what", "price", "count"], [["tea", 3.5, 2], ["cake", 12.0, 10], ["jam", 0.125, 7]])
    lines = _body(text)
    cells = [[cell.strip() for cell in line.split("|")] for line in lines]
    assert [row[1] for row in cells[:2]] == ["3.50", "12.00"] and cells[2][1] in ("0.12", "0.13")
    assert [row[2] for row in cells] == ["2", "10", "7"]
    ends = [line.index(price) + len(price) for line, price in zip(lines[:2], ["3.50", "12.00"])]
    assert ends[0] == ends[1]


def test_the_sales_report():
    lines = report.sales_table(HERE / "sales.csv").splitlines()
    assert lines[2].startswith("notebook") and "15" in lines[2] and "67.50" in lines[2]
    assert "97.50" in lines[3] and "8.99" in lines[4]
    assert lines[2].index("67.50") + 5 == lines[3].index("97.50") + 5 == lines[4].index("8.99") + 4
