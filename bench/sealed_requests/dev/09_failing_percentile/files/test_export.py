import csv

from export import write_summary


def test_writes_a_comma_separated_file(tmp_path):
    path = tmp_path / "out.csv"
    write_summary(path, [("/users", {"mean": 32.04, "p50": 35, "p95": 50})])
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows == [["endpoint", "mean", "p50", "p95"], ["/users", "32.0", "35", "50"]]
