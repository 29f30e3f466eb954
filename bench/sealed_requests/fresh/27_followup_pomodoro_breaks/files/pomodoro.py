"""A day of pomodoros: work blocks with breaks between them (no break after the last one)."""

from datetime import datetime, timedelta

WORK, SHORT_BREAK = 25, 5


def plan(start, sessions, work=WORK, short_break=SHORT_BREAK):
    """[(kind, begins, ends), ...] for `sessions` work blocks from `start` ('HH:MM'), times as 'HH:MM'."""
    clock = datetime.strptime(start, "%H:%M")
    blocks = []
    for number in range(1, sessions + 1):
        blocks.append(("work", clock, clock + timedelta(minutes=work)))
        clock += timedelta(minutes=work)
        if number < sessions:
            blocks.append(("break", clock, clock + timedelta(minutes=short_break)))
            clock += timedelta(minutes=short_break)
    return [(kind, begins.strftime("%H:%M"), ends.strftime("%H:%M")) for kind, begins, ends in blocks]


def finish_time(start, sessions, **lengths):
    return plan(start, sessions, **lengths)[-1][2]
