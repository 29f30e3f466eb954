from datetime import date

from bookings import Booking
from pricing import price


def test_weekday_stay():
    # Monday to Thursday: three weekday nights
    assert price(Booking("x", 1, date(2025, 6, 2), date(2025, 6, 5))) == 270


def test_weekend_nights():
    # Friday and Saturday nights are weekend nights, Sunday night is not
    assert price(Booking("x", 1, date(2025, 6, 5), date(2025, 6, 7))) == 90 + 120
    assert price(Booking("x", 1, date(2025, 6, 8), date(2025, 6, 9))) == 90
