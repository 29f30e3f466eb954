import json


def load_notes(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def add_note(notes, title, body):
    return notes + [{"title": title, "body": body}]


def titles(notes):
    return [note["title"] for note in notes]
