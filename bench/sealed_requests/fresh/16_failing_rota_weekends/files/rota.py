"""Who is on duty each day: weekdays go round everyone, weekends round the weekend crew."""

from datetime import timedelta

from staff import STAFF, names


def is_weekend(day):
    return day.weekday() > 5


def build_rota(start, days, people=STAFF):
    """{date: name} for `days` days from `start`, one person a day, each list taken in turn."""
    everyone, weekend_crew = names(people), names(people, weekends_only=True)
    rota = {}
    weekday_turn = weekend_turn = 0
    for offset in range(days):
        day = start + timedelta(days=offset)
        if is_weekend(day):
            rota[day] = weekend_crew[weekend_turn % len(weekend_crew)]
            weekend_turn += 1
        else:
            rota[day] = everyone[weekday_turn % len(everyone)]
            weekday_turn += 1
    return rota


def shifts_per_person(rota):
    counts = {}
    for name in rota.values():
        counts[name] = counts.get(name, 0) + 1
    return counts
