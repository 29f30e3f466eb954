"""python report.py sales.csv -> a table of units and revenue per product"""

import csv
import sys

from table import render


def read_sales(path):
    totals = {}
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            units, revenue = totals.get(row["product"], (0, 0.0))
            totals[row["product"]] = (units + int(row["units"]), revenue + float(row["revenue"]))
    return totals


def sales_table(path):
    rows = [[product, units, round(revenue, 2)] for product, (units, revenue) in sorted(read_sales(path).items())]
    return render(["product", "units", "revenue"], rows)


if __name__ == "__main__":
    print(sales_table(sys.argv[1]))
