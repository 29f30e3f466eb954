import csv
from datetime import date

from export import to_csv, to_lines


def test_csv(tmp_path):
    path = tmp_path / "rota.csv"
    to_csv({date(2024, 6, 4): "Ben", date(2024, 6, 3): "Ana"}, path)
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows == [["date", "weekday", "name"], ["2024-06-03", "Monday", "Ana"], ["2024-06-04", "Tuesday", "Ben"]]


def test_lines_are_in_date_order():
    lines = to_lines({date(2024, 6, 4): "Ben", date(2024, 6, 3): "Ana"})
    assert lines == ["Mon 2024-06-03  Ana", "Tue 2024-06-04  Ben"]
