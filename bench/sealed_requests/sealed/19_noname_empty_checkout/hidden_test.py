import hashlib
from pathlib import Path

from checkout import checkout_total, subtotal
from receipt import receipt
from shipping import shipping_cost
from test_checkout import test_free_shipping, test_premium_discount, test_small_order_pays_shipping  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_checkout.py": "046fcf182bc00df785fbd056c94c22a9b34e293916067fd750a3d3e77bac5ae1", "shipping.py": "64b53b646c3507651ecc370e3ef0bc3d6b0f6b1315307d1e469192fca4a9f272", "receipt.py": "11cdc2ef2f605ae467f02e24862855539db0537487fd8a44a2674d8987bc2d40"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_an_empty_cart_costs_nothing():
    assert checkout_total({}) == 0
    assert subtotal({}) == 0
    assert "total 0.00" in receipt({})


def test_other_carts_as_before():
    assert checkout_total({"pen": (2.0, 1), "pad": (3.5, 2)}) == round(9.0 + 4.99 + 1.0, 2)
    assert checkout_total({"tv": (300.0, 2)}) == 570.0
    assert shipping_cost(1, 10.0) == 4.99
