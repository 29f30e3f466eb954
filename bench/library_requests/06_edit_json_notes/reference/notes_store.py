import datetime
import json


def load_notes(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def add_note(notes, title, body):
    return notes + [{"title": title, "body": body}]


def titles(notes):
    return [note["title"] for note in notes]


def save_notes(notes, path):
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(notes, fh, indent=2, sort_keys=True, ensure_ascii=False)


def _plain(value):
    if isinstance(value, datetime.date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def to_json(obj):
    return json.dumps(obj, default=_plain)
