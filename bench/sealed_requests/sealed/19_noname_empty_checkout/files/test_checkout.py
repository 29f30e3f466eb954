from checkout import checkout_total
from shipping import shipping_cost


def test_small_order_pays_shipping():
    assert checkout_total({"pen": (2.0, 3)}) == 11.99


def test_free_shipping():
    assert shipping_cost(2, 60.0) == 0.0


def test_premium_discount():
    assert checkout_total({"chair": (200.0, 1)}) == 190.0
