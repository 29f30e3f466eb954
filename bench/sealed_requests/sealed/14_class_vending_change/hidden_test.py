import hashlib
from pathlib import Path

import pytest
from machine_setup import office_machine
from test_vending import test_coins_for, test_fake_coin, test_sold_out  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_vending.py": "997985afb7e569732079b828391198ce799092f2c97b4a277bcb549f03c8df09", "coins.py": "2e4ddd5c9235c032fcec70ff840f59febfb636f026ff6ed21285b5d995b4f5b9", "machine_setup.py": "b44d471d9be0a5296714fb262497d6aabd5e7ae571570c6014c1122a865b58ac"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_change_is_returned():
    machine = office_machine()
    machine.insert(200)
    assert machine.buy("cola") == 50
    assert machine.inserted == 0 and machine.stock["cola"] == 4
    for coin in (50, 20, 20):
        machine.insert(coin)
    assert machine.buy("water") == 0


def test_not_enough_money():
    machine = office_machine()
    machine.insert(100)
    with pytest.raises(ValueError):
        machine.buy("chips")
    assert machine.stock["chips"] == 5
    machine.insert(20)
    assert machine.buy("chips") == 0
