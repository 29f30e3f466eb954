import pytest
from seating import Screening


def test_booking_seats():
    show = Screening("Alien", "ABC", 10)
    assert show.book("B", 4, 3) == [("B", 4), ("B", 5), ("B", 6)]
    assert not show.is_free("B", 5)
    assert show.is_free("B", 7)
    assert show.free_count() == 27


def test_seats_that_do_not_exist():
    show = Screening("Alien", "ABC", 10)
    for row, first, count in (("D", 1, 1), ("A", 0, 2), ("A", 9, 3)):
        with pytest.raises(ValueError):
            show.book(row, first, count)
