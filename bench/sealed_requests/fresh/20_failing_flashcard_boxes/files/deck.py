"""A deck on disk: a JSON list of cards, dates as 'YYYY-MM-DD'."""

import json
from datetime import date


def save(cards, path):
    rows = [{**card, "due": card["due"].isoformat()} for card in cards]
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(rows, fh, indent=1)


def load(path):
    with open(path, encoding="utf-8") as fh:
        rows = json.load(fh)
    return [{**row, "due": date.fromisoformat(row["due"])} for row in rows]
