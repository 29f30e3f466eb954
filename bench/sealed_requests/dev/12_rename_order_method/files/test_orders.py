from orders import Order


def test_item_count():
    order = Order(9, "Zed")
    order.add("A", 2, 1.0)
    order.add("B", 3, 2.0)
    assert order.item_count() == 5
