from rates import price

EU = {"AT", "BE", "DE", "DK", "ES", "FR", "IE", "IT", "NL", "PL", "PT", "SE"}
HOME = "NL"
PACKAGING_KG = 0.2


def zone_of(country):
    if country == HOME:
        return "domestic"
    return "eu" if country in EU else "world"


def parcel_weight(items):
    """items: (name, weight_kg, quantity) -> the parcel's weight with its box."""
    return round(sum(weight * qty for _name, weight, qty in items) + PACKAGING_KG, 3)


def shipping_for(order):
    return price(zone_of(order["country"]), parcel_weight(order["items"]))
