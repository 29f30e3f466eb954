from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Entry:
    project: str
    start: datetime
    end: datetime

    def hours(self):
        return (self.end - self.start).total_seconds() / 3600


class Timesheet:
    def __init__(self, person):
        self.person = person
        self.entries = []

    def add(self, project, start, end):
        entry = Entry(project, start, end)
        self.entries.append(entry)
        return entry

    def hours(self):
        return round(sum(e.hours() for e in self.entries), 2)

    def projects(self):
        return sorted({e.project for e in self.entries})
