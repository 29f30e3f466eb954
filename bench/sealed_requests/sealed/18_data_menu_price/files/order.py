def bill(menu, dishes, tip_percent=0):
    prices = {item["dish"]: item["price"] for item in menu}
    subtotal = sum(prices[dish] for dish in dishes)
    return round(subtotal * (1 + tip_percent / 100), 2)
