import hashlib
import re
from pathlib import Path

import network
import pytest
import stations
import trips
from test_network import test_from_rows, test_rebalance, test_ride, test_ride_to_a_full_place  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_network.py": "c6fd3f6198e8244011c18188e9b79cd47747842d341366e61c4dc8d65b89025a"}


def test_the_tests_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_the_class_has_its_new_name():
    place = stations.Station("Park Gate", 3, 1)
    assert place.free_slots() == 2
    place.park()
    place.park()
    with pytest.raises(RuntimeError):
        place.park()
    with pytest.raises(ValueError):
        stations.Station("Tiny", 1, 2)
    assert repr(place) == "Station('Park Gate', 3/3)"
    assert not hasattr(stations, "Dock")


def test_no_file_uses_the_old_name():
    for path in HERE.glob("*.py"):
        if path.name.startswith("test_"):
            continue
        assert not re.search(r"\bDock\b", path.read_text(encoding="utf-8")), path.name


def test_the_users_of_the_class_work():
    city = network.from_rows(["North, 2, 2", "South, 5, 0"])
    assert isinstance(city.add("East", 4, 1), stations.Station)
    assert isinstance(city.get("North"), stations.Station)
    assert trips.is_place(city.get("South")) and not trips.is_place("South")
    trips.ride(city.get("North"), city.get("South"))
    assert trips.rebalance(city.get("East"), city.get("South"), 3) == 1
    assert city.get("South").bikes == 2 and city.total_bikes() == 3
