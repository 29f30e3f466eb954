"""Time sheet entries: one line per entry, 'start;end;task'."""

from datetime import datetime

FORMAT = "%Y-%m-%d %H:%M"


def parse_line(line):
    start, end, task = line.strip().split(";")
    return start.strip(), end.strip(), task.strip()


def tasks(lines):
    return sorted({parse_line(line)[2] for line in lines if line.strip()})


def entries_for(lines, task):
    return [parse_line(line) for line in lines if line.strip() and parse_line(line)[2] == task]


def hours_between(start, end):
    delta = datetime.strptime(end, FORMAT) - datetime.strptime(start, FORMAT)
    return delta.total_seconds() / 3600


def week_day(start):
    return datetime.strptime(start, FORMAT).strftime("%A")
