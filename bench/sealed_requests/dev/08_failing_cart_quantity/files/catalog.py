PRICES = {"apple": 0.5, "bread": 2.25, "milk": 1.1, "coffee": 7.9}


def price_of(name):
    if name not in PRICES:
        raise KeyError(f"no such product: {name}")
    return PRICES[name]
