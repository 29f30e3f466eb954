import hashlib
from pathlib import Path

import importer
import pytest
import regulars
from laundry import book, bookings_of, is_free, new_calendar
from test_week import test_big_loads, test_import, test_mornings  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_week.py": "9fc0704d6f4eba280fc2244d78b51b3fc6649a4ea413dce0da1e3d8d933ebd86"}


def test_the_tests_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def _hours(calendar, who):
    return [hour for _, _, hour in bookings_of(calendar, who)]


def test_book_takes_a_number_of_hours():
    calendar = new_calendar()
    book(calendar, "washer2", "thu", 9, 2, who="Ada")
    assert bookings_of(calendar, "Ada") == [("washer2", "thu", 9), ("washer2", "thu", 10)]
    book(calendar, "washer2", "thu", 11, hours=3, who="Bo")
    assert _hours(calendar, "Bo") == [11, 12, 13]
    assert is_free(calendar, "washer2", "thu", 14)


def test_one_hour_by_default():
    calendar = new_calendar()
    book(calendar, "dryer", "mon", 16)
    assert not is_free(calendar, "dryer", "mon", 16) and is_free(calendar, "dryer", "mon", 17)
    book(calendar, "dryer", "mon", 17, who="Cy")
    assert bookings_of(calendar, "Cy") == [("dryer", "mon", 17)]


def test_clashes_and_closing_time_are_refused():
    calendar = new_calendar()
    book(calendar, "washer1", "tue", 10, 2)
    with pytest.raises(ValueError):
        book(calendar, "washer1", "tue", 9, 2)
    with pytest.raises(ValueError):
        book(calendar, "washer1", "tue", 17, 2)
    book(calendar, "washer1", "tue", 12, 6)
    assert not is_free(calendar, "washer1", "tue", 17)


def test_the_callers_book_the_same_hours():
    calendar = new_calendar()
    regulars.book_mornings(calendar)
    regulars.book_big_loads(calendar)
    days = ("fri", "mon", "thu", "tue", "wed")
    assert bookings_of(calendar, "flat 1") == [("washer1", day, 9) for day in days]
    assert bookings_of(calendar, "flat 4") == [
        ("dryer", "fri", 15),
        ("dryer", "fri", 16),
        ("washer2", "mon", 13),
        ("washer2", "mon", 14),
        ("washer2", "mon", 15),
    ]
    lines = ["washer2;fri;14;17;Dee", "washer2;mon;15;16;Eli", "washer1;fri;8;9;Fay"]
    assert importer.import_lines(calendar, lines) == ["washer2;mon;15;16;Eli"]
    assert _hours(calendar, "Dee") == [14, 15, 16]
    assert bookings_of(calendar, "Fay") == [("washer1", "fri", 8)]
