import csv


def totals_by_region(path):
    totals = {}
    with open(path, newline="") as fh:
        for row in csv.DictReader(fh):
            totals[row["region"]] = totals.get(row["region"], 0.0) + float(row["amount"])
    return totals
