from alerts import check
from sensor import Sensor


def test_latest():
    sensor = Sensor("kitchen")
    assert sensor.latest() is None
    sensor.add(20)
    sensor.add(21.5)
    assert sensor.latest() == 21.5


def test_alert():
    sensor = Sensor("attic")
    sensor.add(35)
    assert "attic" in check(sensor, 30)
    assert check(sensor, 40) is None
