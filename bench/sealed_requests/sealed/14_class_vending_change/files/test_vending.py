import pytest
from coins import coins_for
from machine_setup import office_machine


def test_fake_coin():
    with pytest.raises(ValueError):
        office_machine().insert(3)


def test_sold_out():
    machine = office_machine()
    machine.stock["cola"] = 0
    machine.insert(200)
    with pytest.raises(LookupError):
        machine.buy("cola")


def test_coins_for():
    assert coins_for(85) == [50, 20, 10, 5]
