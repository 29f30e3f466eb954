from datetime import date

from readings import Reading, parse_reading
from summary import summarize


def test_parse():
    assert parse_reading("2024-05-01,12.5,light rain\n") == Reading(date(2024, 5, 1), 12.5, "light rain")


def test_summary():
    readings = [Reading(date(2024, 5, d), t, "sunny") for d, t in ((1, 10.0), (2, 20.0), (3, 15.0))]
    result = summarize(readings)
    assert (result["days"], result["min"], result["max"], result["mean"]) == (3, 10.0, 20.0, 15.0)
