"""Time sheet entries: one line per entry, 'start;end;task'."""


def parse_line(line):
    start, end, task = line.strip().split(";")
    return start.strip(), end.strip(), task.strip()


def tasks(lines):
    return sorted({parse_line(line)[2] for line in lines if line.strip()})


def entries_for(lines, task):
    return [parse_line(line) for line in lines if line.strip() and parse_line(line)[2] == task]
