from datetime import date

import pytest
from bookings import Booking, overlaps
from hotel import Hotel


def stay(room, first, last, guest="x"):
    return Booking(guest, room, date(2025, 6, first), date(2025, 6, last))


def test_nights():
    assert stay(1, 3, 7).nights == 4


def test_check_out_before_check_in():
    with pytest.raises(ValueError):
        stay(1, 5, 5)


def test_overlapping_stays_clash():
    assert overlaps(stay(1, 3, 7), stay(1, 6, 9))
    assert overlaps(stay(1, 3, 7), stay(1, 4, 5))


def test_other_rooms_never_clash():
    assert not overlaps(stay(1, 3, 7), stay(2, 3, 7))


def test_back_to_back_stays_do_not_clash():
    assert not overlaps(stay(1, 3, 7), stay(1, 7, 9))
    hotel = Hotel([101, 102])
    hotel.book("ana", 101, date(2025, 6, 3), date(2025, 6, 7))
    hotel.book("bo", 101, date(2025, 6, 7), date(2025, 6, 9))
    assert hotel.free_rooms(date(2025, 6, 7)) == [102]
