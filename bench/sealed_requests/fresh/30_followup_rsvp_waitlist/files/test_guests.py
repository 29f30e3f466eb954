import pytest
from guests import GuestList
from invite import read_replies, summary


def test_rsvp_and_cancel():
    guests = GuestList(10)
    guests.rsvp("Nadia")
    guests.rsvp("Omar")
    guests.cancel("Nadia")
    assert guests.headcount() == 1 and guests.is_coming("Omar") and not guests.is_coming("Nadia")


def test_twice_is_an_error():
    guests = GuestList(10)
    guests.rsvp("Nadia")
    with pytest.raises(ValueError):
        guests.rsvp("Nadia")


def test_read_replies():
    guests = read_replies(["Nadia, yes", "Omar, no", "", "Lin, YES"], 5)
    assert summary(guests) == "2 coming, 3 seats left"
