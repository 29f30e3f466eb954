import csv
from datetime import date

from fuel import FillUp, consumption


def load(path):
    """Rows: date,odometer_km,litres,full|partial"""
    with open(path, newline="", encoding="utf-8") as fh:
        return [
            FillUp(date.fromisoformat(day), int(km), float(litres), kind.strip() == "full")
            for day, km, litres, kind in csv.reader(fh)
        ]


def last_consumption(fillups):
    full = [f for f in fillups if f.full]
    if len(full) < 2:
        return None
    return consumption(full[-2], full[-1])
