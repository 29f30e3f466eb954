import json


def load(path="students.json"):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def names(students):
    return [s["name"] for s in students]
