from datetime import timedelta

WEEKDAY_RATE = 90
WEEKEND_RATE = 120


def nights_of(booking):
    return [booking.check_in + timedelta(days=n) for n in range(booking.nights)]


def is_weekend_night(night):
    """Friday and Saturday nights cost more."""
    return night.weekday() >= 5


def price(booking):
    return sum(WEEKEND_RATE if is_weekend_night(n) else WEEKDAY_RATE for n in nights_of(booking))
