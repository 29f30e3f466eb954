from report import out_of_stock, total_value

PRODUCTS = [{"name": "a", "price": 2.0, "qty": 3}, {"name": "b", "price": 1.5, "qty": 0}]


def test_total_value():
    assert total_value(PRODUCTS) == 6.0


def test_out_of_stock():
    assert out_of_stock(PRODUCTS) == ["b"]
