import hashlib
from pathlib import Path

import invite
from guests import GuestList
from test_guests import test_read_replies, test_rsvp_and_cancel, test_twice_is_an_error  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_guests.py": "de9160bbd79c774d3f3982128c7e1888c8d9324e385ee9211727f1e3b729b847", "invite.py": "0944b838e6b8f806f95d639e7981c7cbd705be9a51c93d6d836b162ba228846b"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_plus_ones_count():
    guests = GuestList(20)
    guests.rsvp("Nadia", plus_ones=2)
    guests.rsvp("Omar")
    guests.rsvp("Lin", 1)
    assert guests.headcount() == 6 and guests.seats_left() == 14
    guests.cancel("Nadia")
    assert guests.headcount() == 3 and guests.is_coming("Lin")


def test_a_full_venue_puts_guests_on_the_waitlist():
    guests = GuestList(5)
    guests.rsvp("Nadia", plus_ones=3)
    guests.rsvp("Omar", plus_ones=1)
    guests.rsvp("Lin")
    guests.rsvp("Ana", plus_ones=2)
    assert guests.headcount() == 5 and guests.seats_left() == 0
    assert guests.waitlist == ["Omar", "Ana"]
    assert guests.is_coming("Lin") and not guests.is_coming("Omar") and not guests.is_coming("Ana")


def test_a_cancellation_brings_in_the_waitlist():
    guests = GuestList(6)
    guests.rsvp("Nadia", plus_ones=3)
    guests.rsvp("Omar", plus_ones=1)
    guests.rsvp("Lin", plus_ones=2)
    guests.rsvp("Ana")
    guests.rsvp("Bo", plus_ones=5)
    assert guests.waitlist == ["Lin", "Ana", "Bo"] and guests.headcount() == 6
    guests.cancel("Nadia")
    assert guests.is_coming("Lin") and guests.is_coming("Ana")
    assert guests.waitlist == ["Bo"] and guests.headcount() == 6
    guests.cancel("Omar")
    assert guests.waitlist == ["Bo"] and guests.headcount() == 4 and not guests.is_coming("Bo")


def test_the_form_still_works():
    guests = invite.read_replies(["A, yes", "B, yes", "C, yes"], 2)
    assert guests.headcount() == 2 and guests.waitlist == ["C"]
    assert invite.summary(guests) == "2 coming, 0 seats left"
