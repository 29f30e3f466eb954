from collections import Counter


def count_by_level(entries):
    return dict(Counter(entry["level"] for entry in entries))


def first_error(entries):
    for entry in entries:
        if entry["level"] == "ERROR":
            return entry
    return None
