from shipping import shipping_cost


def subtotal(cart):
    return round(sum(price * qty for price, qty in cart.values()), 2)


def average_item_price(cart):
    return subtotal(cart) / sum(qty for _, qty in cart.values())


def checkout_total(cart):
    """cart: product -> (unit price, quantity)."""
    items = sum(qty for _, qty in cart.values())
    cost = subtotal(cart)
    if average_item_price(cart) > 100:
        cost *= 0.95  # premium orders get 5% off
    return round(cost + shipping_cost(items, cost), 2)
