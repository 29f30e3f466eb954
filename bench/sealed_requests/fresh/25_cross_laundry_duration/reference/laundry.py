"""The building's shared laundry, booked by the hour: a calendar maps (machine, day) to {hour: who}."""

OPEN, CLOSE = 8, 18
MACHINES = ("washer1", "washer2", "dryer")


def new_calendar():
    return {}


def is_free(calendar, machine, day, hour):
    return hour not in calendar.get((machine, day), {})


def book(calendar, machine, day, start, hours=1, who="someone"):
    """Book machine on day for `hours` hours from start; ValueError if it clashes or is out of hours."""
    end = start + hours
    if machine not in MACHINES:
        raise ValueError(f"no machine {machine!r}")
    if not OPEN <= start < end <= CLOSE:
        raise ValueError(f"{start}-{end} is outside {OPEN}-{CLOSE}")
    if not all(is_free(calendar, machine, day, hour) for hour in range(start, end)):
        raise ValueError(f"{machine} is taken on {day} between {start} and {end}")
    slots = calendar.setdefault((machine, day), {})
    for hour in range(start, end):
        slots[hour] = who


def bookings_of(calendar, who):
    found = []
    for (machine, day), slots in calendar.items():
        found += [(machine, day, hour) for hour, name in slots.items() if name == who]
    return sorted(found)
