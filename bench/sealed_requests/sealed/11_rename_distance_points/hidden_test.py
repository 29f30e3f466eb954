import hashlib
from pathlib import Path

import pytest
from geo import distance
from nearest import nearest
from places import PLACES
from routes import route_length
from test_geo import test_midpoint  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_geo.py": "8047e4ed19f904c52161fb531547336f490728ceee73dbd9eed200d14e4267cb", "places.py": "ff2b9c6941266dc5428228ac452da782baaa175c4ed1c6367c67d2eb7a9167b3"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_two_points():
    assert distance(PLACES["berlin"], PLACES["paris"]) == pytest.approx(878, abs=2)
    assert distance((0.0, 0.0), (0.0, 1.0)) == pytest.approx(111.2, abs=0.1)
    assert distance([10, 10], [10, 10]) == pytest.approx(0)
    with pytest.raises(TypeError):
        distance(0.0, 0.0, 0.0, 1.0)


def test_the_callers_work():
    assert route_length(["london", "paris", "rome"]) == pytest.approx(344 + 1106, abs=3)
    assert nearest((50.0, 5.0)) == "paris"
    assert nearest(PLACES["berlin"], exclude={"berlin"}) == "paris"
