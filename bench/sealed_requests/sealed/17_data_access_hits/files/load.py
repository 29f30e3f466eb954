import csv


def read_rows(path="access.csv"):
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        row["status"] = int(row["status"])
    return rows
