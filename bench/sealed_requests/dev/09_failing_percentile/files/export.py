import csv


def write_summary(path, rows):
    """rows: (endpoint, summary dict) pairs -> a CSV with one line per endpoint."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, delimiter=";")
        writer.writerow(["endpoint", "mean", "p50", "p95"])
        for endpoint, numbers in rows:
            writer.writerow([endpoint, round(numbers["mean"], 1), numbers["p50"], numbers["p95"]])
