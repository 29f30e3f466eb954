"""Parcel postage: a base price per zone, plus a price for every started kilo over the first."""

import math

BASE = {"domestic": 4.5, "eu": 9.0, "world": 16.0}
PER_EXTRA_KG = {"domestic": 1.2, "eu": 2.5, "world": 4.75}


def price(weight_kg, zone):
    if zone not in BASE:
        raise ValueError(f"unknown zone {zone!r}")
    if weight_kg <= 0:
        raise ValueError("a parcel weighs something")
    extra_kilos = max(0, math.ceil(weight_kg - 1))
    return round(BASE[zone] + extra_kilos * PER_EXTRA_KG[zone], 2)
