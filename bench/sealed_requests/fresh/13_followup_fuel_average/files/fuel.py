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


def cost_per_km(litres, price_per_litre, km):
    return round(litres * price_per_litre / km, 3)
