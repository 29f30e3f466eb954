"""The garden file: a JSON list of plants."""

import json
from datetime import date

from garden import Plant


def load_garden(path):
    with open(path, encoding="utf-8") as fh:
        rows = json.load(fh)
    return [Plant(row["name"], row["every_days"], date.fromisoformat(row["last_watered"])) for row in rows]


def save_garden(plants, path):
    rows = [
        {"name": p.name, "every_days": p.every_days, "last_watered": p.last_watered.isoformat()}
        for p in plants
    ]
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(rows, fh, indent=2)
