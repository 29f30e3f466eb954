import csv


def _rows(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def average_score(path):
    scores = [float(row["score"]) for row in _rows(path)]
    return sum(scores) / len(scores)


def top_student(path):
    return max(_rows(path), key=lambda row: float(row["score"]))["name"]
