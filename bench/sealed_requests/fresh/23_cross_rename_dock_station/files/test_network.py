import pytest
from network import from_rows
from trips import is_place, rebalance, ride

ROWS = ["Market Square, 10, 3", "Station Road, 4, 4", "", "Harbour, 6, 0"]


def test_from_rows():
    network = from_rows(ROWS)
    assert network.total_bikes() == 7
    assert network.with_bikes() == ["Market Square", "Station Road"]
    assert is_place(network.get("Harbour"))


def test_ride():
    network = from_rows(ROWS)
    ride(network.get("Market Square"), network.get("Harbour"))
    assert network.get("Harbour").bikes == 1 and network.get("Market Square").bikes == 2


def test_ride_to_a_full_place():
    network = from_rows(ROWS)
    with pytest.raises(RuntimeError):
        ride(network.get("Market Square"), network.get("Station Road"))
    assert network.get("Market Square").bikes == 3


def test_rebalance():
    network = from_rows(ROWS)
    assert rebalance(network.get("Station Road"), network.get("Harbour"), 10) == 4
    assert network.get("Harbour").bikes == 4
