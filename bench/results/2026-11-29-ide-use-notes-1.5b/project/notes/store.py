"""Notes kept in a JSON file."""

import json
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path


@dataclass
class Note:
    title: str
    body: str = ""
    tags: list[str] = field(default_factory=list)
    created: str = field(default_factory=lambda: datetime.now().isoformat(timespec="seconds"))


class NoteStore:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.notes: list[Note] = []
        if self.path.exists():
            self.load()

    def add(self, title, body="", tags=None):
        note = Note(title, body, list(tags or []))
        self.notes.append(note)
        return note

    def find(self, tag):
        # tags are matched without regard to case
        return [n for n in self.notes if tag.lower() in (t.lower() for t in n.tags)]

    def remove(self, index):
        """Remove the note at 1-based `index` (as the list command shows it)."""
        return self.notes.pop(index)

    def load(self):
        data = json.loads(self.path.read_text())
        self.notes = [Note(**item) for item in data]

    def save(self):
        self.path.write_text(json.dumps([asdict(n) for n in self.notes]))
