"""Replies from the invitation form: lines like 'Nadia, yes' or 'Omar, no'."""

from guests import GuestList


def read_replies(lines, capacity):
    guests = GuestList(capacity)
    for line in lines:
        if not line.strip():
            continue
        name, answer = (part.strip() for part in line.split(","))
        if answer.lower() == "yes":
            guests.rsvp(name)
    return guests


def summary(guests):
    return f"{guests.headcount()} coming, {guests.seats_left()} seats left"
