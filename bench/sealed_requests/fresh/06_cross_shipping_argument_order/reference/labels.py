from checkout import parcel_weight, zone_of
from rates import price


def label(order):
    zone = zone_of(order["country"])
    weight = parcel_weight(order["items"])
    return "\n".join(
        [
            order["name"],
            order["address"],
            order["country"],
            f"{weight:.2f} kg, {zone}, postage {price(weight, zone):.2f}",
        ]
    )


def cheapest_split(order):
    """The postage if the order went as one parcel per item line, to compare with one big parcel."""
    zone = zone_of(order["country"])
    return round(sum(price(weight * qty, zone) for _name, weight, qty in order["items"]), 2)
