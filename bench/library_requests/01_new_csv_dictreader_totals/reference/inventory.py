import csv


def total_by_category(path):
    totals = {}
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            value = float(row["price"]) * float(row["qty"])
            totals[row["category"]] = totals.get(row["category"], 0.0) + value
    return totals


def write_totals(totals, path):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=["category", "total"])
        writer.writeheader()
        for category in sorted(totals):
            writer.writerow({"category": category, "total": totals[category]})
