from pathlib import Path

from logbook import last_consumption, load

LOG = Path(__file__).parent / "fuel_log.csv"


def test_load():
    fillups = load(LOG)
    assert len(fillups) == 5
    assert fillups[2].full is False and fillups[2].litres == 20.0


def test_last_consumption():
    assert last_consumption(load(LOG)) == 6.0
