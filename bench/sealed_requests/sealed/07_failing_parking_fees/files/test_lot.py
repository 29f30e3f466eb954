import pytest
from lot import Lot


def test_stay():
    lot = Lot(5)
    lot.enter("AB-123", 10)
    assert lot.leave("AB-123", 95) == 85


def test_a_full_lot_refuses_cars():
    lot = Lot(1)
    lot.enter("A", 0)
    with pytest.raises(RuntimeError):
        lot.enter("B", 1)
