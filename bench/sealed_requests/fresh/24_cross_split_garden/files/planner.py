"""What to water today: python planner.py [garden.json]"""

import sys
from datetime import date

from garden import load_garden, needs_water, next_watering, save_garden


def todays_list(plants, today):
    return [plant.name for plant in plants if needs_water(plant, today)]


def week_ahead(plants, today):
    """{name: next date} for plants due within the next 7 days, soonest first."""
    due = sorted((next_watering(plant), plant.name) for plant in plants)
    return {name: day for day, name in due if (day - today).days <= 7}


def water_all(path, today):
    plants = load_garden(path)
    watered = todays_list(plants, today)
    for plant in plants:
        if plant.name in watered:
            plant.water(today)
    save_garden(plants, path)
    return watered


if __name__ == "__main__":
    print("\n".join(water_all(sys.argv[1] if len(sys.argv) > 1 else "garden.json", date.today())))
