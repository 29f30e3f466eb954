from collections import Counter


def errors(rows):
    """Rows with a 4xx or 5xx status."""
    return [row for row in rows if row["status"] >= 400]


def unique_visitors(rows):
    return len({row["ip"] for row in rows})


def status_counts(rows):
    return dict(Counter(row["status"] for row in rows))
