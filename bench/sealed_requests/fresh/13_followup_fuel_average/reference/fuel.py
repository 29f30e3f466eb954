from dataclasses import dataclass
from datetime import date


@dataclass
class FillUp:
    day: date
    odometer_km: int
    litres: float
    full: bool = True  # False: only part of the tank was filled


def consumption(previous, current):
    """Litres per 100 km between two full fill-ups."""
    km = current.odometer_km - previous.odometer_km
    if km <= 0:
        raise ValueError("the odometer has to go up")
    return round(current.litres / km * 100, 2)


def average_consumption(fillups, since=None):
    """Litres per 100 km from the first full fill-up to the last full one (the partial ones in
    between count), using only the fill-ups on or after `since` when it is given."""
    log = sorted((f for f in fillups if since is None or f.day >= since), key=lambda f: f.odometer_km)
    full = [n for n, f in enumerate(log) if f.full]
    if len(full) < 2:
        raise ValueError("need two full fill-ups")
    first, last = full[0], full[-1]
    km = log[last].odometer_km - log[first].odometer_km
    if km <= 0:
        raise ValueError("the odometer has to go up")
    litres = sum(f.litres for f in log[first + 1 : last + 1])
    return round(litres / km * 100, 2)


def cost_per_km(litres, price_per_litre, km):
    return round(litres * price_per_litre / km, 3)
