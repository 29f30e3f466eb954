def total_value(products):
    return round(sum(p["price"] * p["qty"] for p in products), 2)


def out_of_stock(products):
    return [p["name"] for p in products if p["qty"] == 0]
