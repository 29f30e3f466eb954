"""A day of pomodoros: work blocks with breaks between them (no break after the last one)."""

from datetime import datetime, timedelta

WORK, SHORT_BREAK, LONG_BREAK, LONG_EVERY = 25, 5, 15, 4


def plan(start, sessions, work=WORK, short_break=SHORT_BREAK, long_break=LONG_BREAK, long_every=LONG_EVERY):
    """[(kind, begins, ends), ...] for `sessions` work blocks from `start` ('HH:MM'), times as 'HH:MM'.
    The break after every `long_every`-th work block lasts `long_break` minutes."""
    clock = datetime.strptime(start, "%H:%M")
    blocks = []
    for number in range(1, sessions + 1):
        blocks.append(("work", clock, clock + timedelta(minutes=work)))
        clock += timedelta(minutes=work)
        if number < sessions:
            length = long_break if number % long_every == 0 else short_break
            blocks.append(("break", clock, clock + timedelta(minutes=length)))
            clock += timedelta(minutes=length)
    return [(kind, begins.strftime("%H:%M"), ends.strftime("%H:%M")) for kind, begins, ends in blocks]


def finish_time(start, sessions, **lengths):
    return plan(start, sessions, **lengths)[-1][2]
