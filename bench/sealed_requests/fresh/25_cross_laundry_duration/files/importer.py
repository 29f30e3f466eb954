"""Bookings from the old paper sheet, typed in as 'machine;day;start;end;who', e.g. 'washer2;tue;10;12;Sam'."""

from laundry import book


def import_lines(calendar, lines):
    """Book each line; returns the lines that clashed or were invalid."""
    rejected = []
    for line in lines:
        if not line.strip():
            continue
        machine, day, start, end, who = (part.strip() for part in line.split(";"))
        try:
            book(calendar, machine, day, int(start), int(end), who=who)
        except ValueError:
            rejected.append(line)
    return rejected
