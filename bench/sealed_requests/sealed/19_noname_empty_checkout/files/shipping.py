FREE_FROM = 50.0


def shipping_cost(items, amount):
    if amount >= FREE_FROM:
        return 0.0
    return 4.99 + 0.5 * max(0, items - 1)
