def total_value(products):
    return round(sum(p["price"] * p["qty"] for p in products), 2)


def out_of_stock(products):
    return [p["name"] for p in products if p["qty"] == 0]


def value_by_category(products):
    totals = {}
    for p in products:
        totals[p["category"]] = round(totals.get(p["category"], 0) + p["price"] * p["qty"], 2)
    return totals
