from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class Booking:
    guest: str
    room: int
    check_in: date
    check_out: date

    def __post_init__(self):
        if self.check_out <= self.check_in:
            raise ValueError("check-out must be after check-in")

    @property
    def nights(self):
        return (self.check_out - self.check_in).days


def overlaps(a, b):
    """Whether two bookings want the same room on the same night."""
    return a.room == b.room and a.check_in < b.check_out and b.check_in < a.check_out
