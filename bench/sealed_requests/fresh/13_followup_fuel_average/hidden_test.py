import hashlib
from datetime import date
from pathlib import Path

import logbook
import pytest
from fuel import FillUp, average_consumption
from test_fuel import test_consumption, test_cost_per_km, test_odometer_must_go_up  # noqa: F401
from test_logbook import test_last_consumption, test_load  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_fuel.py": "ef4628dabbe412dc284e49b8c164c33fa701cf09b8a93e3a70c23b6d99b2873a", "test_logbook.py": "8b8c74c2255b170fe0b1e58df5dffc56a4e2a121ee081f09787e301de57ecc8e", "logbook.py": "372e24016dc326f24a817168bb22b8e6835cf299614ef4e697d8333ddd8f0258", "fuel_log.csv": "9f99e9f2348596c306d5e973cda15ba7bc7f8770bd2dba64f51be0500eb65750"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def d(month, day):
    return date(2025, month, day)


def test_all_full():
    log = [FillUp(d(1, 1), 1000, 50.0), FillUp(d(1, 10), 1400, 30.0), FillUp(d(1, 20), 2000, 42.0)]
    assert average_consumption(log) == pytest.approx(7.2, abs=0.01)


def test_partial_fill_ups():
    log = [
        FillUp(d(1, 1), 1000, 10.0, full=False),
        FillUp(d(1, 5), 1200, 45.0),
        FillUp(d(1, 12), 1500, 15.0, full=False),
        FillUp(d(1, 20), 1800, 21.0),
        FillUp(d(1, 28), 1900, 8.0, full=False),
    ]
    assert average_consumption(log) == pytest.approx(6.0, abs=0.01)
    assert average_consumption(logbook.load(HERE / "fuel_log.csv")) == pytest.approx(5.64, abs=0.01)


def test_since():
    log = [
        FillUp(d(1, 1), 1000, 40.0),
        FillUp(d(2, 1), 1500, 60.0),
        FillUp(d(3, 1), 2000, 33.0),
        FillUp(d(3, 10), 2200, 6.0, full=False),
        FillUp(d(4, 1), 2600, 30.0),
    ]
    assert average_consumption(log) == pytest.approx(8.06, abs=0.01)
    assert average_consumption(log, since=d(2, 1)) == pytest.approx(6.27, abs=0.01)
    assert average_consumption(log, since=d(2, 15)) == pytest.approx(6.0, abs=0.01)
