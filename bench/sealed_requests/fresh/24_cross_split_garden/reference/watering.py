"""When a plant wants water."""

from datetime import timedelta


def next_watering(plant):
    return plant.last_watered + timedelta(days=plant.every_days)


def needs_water(plant, today):
    return next_watering(plant) <= today
