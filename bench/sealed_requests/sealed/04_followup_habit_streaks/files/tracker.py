import json
from datetime import date

from habits import completion_rate, current_streak


class Tracker:
    def __init__(self, path):
        self.path = path
        try:
            with open(path, encoding="utf-8") as fh:
                raw = json.load(fh)
        except FileNotFoundError:
            raw = {}
        self.habits = {name: [date.fromisoformat(d) for d in days] for name, days in raw.items()}

    def mark(self, habit, day=None):
        self.habits.setdefault(habit, []).append(day or date.today())

    def save(self):
        with open(self.path, "w", encoding="utf-8") as fh:
            json.dump({n: [d.isoformat() for d in days] for n, days in self.habits.items()}, fh)

    def streak(self, habit, today=None):
        return current_streak(self.habits.get(habit, []), today)

    def rate(self, habit, start, end):
        return completion_rate(self.habits.get(habit, []), start, end)
