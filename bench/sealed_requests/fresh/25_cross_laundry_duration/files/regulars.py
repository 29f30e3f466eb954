"""The flats with a fixed weekly slot, booked for a week."""

from laundry import book

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri")


def book_mornings(calendar):
    """Flat 1 has washer1 every weekday from 9 to 10."""
    for day in WEEKDAYS:
        book(calendar, "washer1", day, 9, 10, who="flat 1")


def book_big_loads(calendar):
    """Flat 4 washes on Monday 13 to 16 and dries on Friday 15 to 17."""
    book(calendar, "washer2", "mon", 13, 16, who="flat 4")
    book(calendar, "dryer", "fri", 15, 17, who="flat 4")
