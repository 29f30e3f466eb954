import json
import os


def load(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def save(path, items):
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(items, fh, indent=2)
