from notes.render import render_list
from notes.store import Note


def test_empty():
    assert render_list([]) == "No notes."


def test_numbers_and_tags():
    text = render_list([Note("milk", tags=["shopping"]), Note("call")])
    assert text.splitlines() == ["1. milk [shopping]", "2. call"]
