"""Turning notes into text for the terminal."""


def render_note(note, number=None):
    head = f"{number}. {note.title}" if number is not None else note.title
    tags = f" [{', '.join(note.tags)}]" if note.tags else ""
    return head + tags + (f"\n   {note.body}" if note.body else "")


def render_list(notes):
    if not notes:
        return "No notes."
    return "\n".join(render_note(n, i) for i, n in enumerate(notes, start=1))
