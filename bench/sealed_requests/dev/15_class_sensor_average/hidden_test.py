import hashlib
from pathlib import Path

import dashboard
import pytest
from sensor import Sensor
from test_sensor import test_alert, test_latest  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_sensor.py": "4d6c38a18eb37b5c08d95fdb0aabb860ff9c069fab7823f4c0a6182ba61b80c8", "alerts.py": "69898562bbe93b73ff2e40e06d0d9f98256beca9a5c5422370d24c0402e4ad0c", "dashboard.py": "5621eec6ee955e4b8a4a1a824833eb60ea4688d741e3e305ef6fc5f57a5a9146"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def _sensor(*values):
    sensor = Sensor("s")
    for value in values:
        sensor.add(value)
    return sensor


def test_average_of_all():
    assert _sensor(10, 20, 60).average() == pytest.approx(30)
    assert _sensor(7).average() == pytest.approx(7)


def test_average_of_the_last_n():
    sensor = _sensor(100, 1, 2, 3)
    assert sensor.average(last=3) == pytest.approx(2)
    assert sensor.average(last=1) == pytest.approx(3)
    assert sensor.average(3) == pytest.approx(2)
    assert sensor.average(last=10) == pytest.approx(26.5)


def test_no_readings():
    with pytest.raises(ValueError):
        Sensor("empty").average()


def test_the_rest_still_works():
    sensor = _sensor(1, 2)
    assert sensor.latest() == 2 and sensor.values() == [1.0, 2.0]
    assert dashboard.lines(dashboard.build([("attic", 31.5)]))[0] == "attic: 31.5C"
