import csv


def read_products(path="products.csv"):
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        row["price"] = float(row["price"])
        row["qty"] = int(row["qty"])
    return rows
