from importer import import_lines
from laundry import bookings_of, is_free, new_calendar
from regulars import book_big_loads, book_mornings


def test_mornings():
    calendar = new_calendar()
    book_mornings(calendar)
    assert len(bookings_of(calendar, "flat 1")) == 5
    assert not is_free(calendar, "washer1", "wed", 9) and is_free(calendar, "washer1", "wed", 10)


def test_big_loads():
    calendar = new_calendar()
    book_big_loads(calendar)
    assert bookings_of(calendar, "flat 4") == [
        ("dryer", "fri", 15),
        ("dryer", "fri", 16),
        ("washer2", "mon", 13),
        ("washer2", "mon", 14),
        ("washer2", "mon", 15),
    ]


def test_import():
    calendar = new_calendar()
    book_mornings(calendar)
    rejected = import_lines(calendar, ["washer2;tue;10;12;Sam", "washer1;mon;8;10;Kai", "", "dryer;wed;17;19;Ola"])
    assert rejected == ["washer1;mon;8;10;Kai", "dryer;wed;17;19;Ola"]
    assert bookings_of(calendar, "Sam") == [("washer2", "tue", 10), ("washer2", "tue", 11)]
