from collections import Counter


def errors(rows):
    """Rows with a 4xx or 5xx status."""
    return [row for row in rows if row["status"] >= 400]


def unique_visitors(rows):
    return len({row["ip"] for row in rows})


def status_counts(rows):
    return dict(Counter(row["status"] for row in rows))


def hits_per_path(rows):
    """(path, successful requests) pairs, most visited first, ties by path."""
    counts = Counter(row["path"] for row in rows if 200 <= int(row["status"]) <= 299)
    return sorted(counts.items(), key=lambda pair: (-pair[1], pair[0]))
