"""The plants in the garden, when they were last watered, and the garden file."""

import json
from datetime import date, timedelta


class Plant:
    def __init__(self, name, every_days, last_watered):
        self.name = name
        self.every_days = every_days  # how often it wants water
        self.last_watered = last_watered

    def water(self, day):
        self.last_watered = day

    def __repr__(self):
        return f"Plant({self.name!r}, every {self.every_days} days, last {self.last_watered})"


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


def next_watering(plant):
    return plant.last_watered + timedelta(days=plant.every_days)


def needs_water(plant, today):
    return next_watering(plant) <= today
