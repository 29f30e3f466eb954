import datetime
import json

import notes_store

NOTES = [{"title": "Café", "body": "order beans", "tags": ["shop"]}, {"body": "call Bo", "title": "Phone"}]


def test_save_notes(tmp_path):
    path = tmp_path / "notes.json"
    notes_store.save_notes(NOTES, str(path))
    text = path.read_text(encoding="utf-8")
    assert text.rstrip("\n") == json.dumps(NOTES, indent=2, sort_keys=True, ensure_ascii=False)
    assert notes_store.load_notes(str(path)) == NOTES


def test_to_json_writes_dates_as_iso_strings():
    obj = {"due": datetime.date(2024, 5, 1), "count": 2, "days": [datetime.date(2023, 12, 31)]}
    assert json.loads(notes_store.to_json(obj)) == {"due": "2024-05-01", "count": 2, "days": ["2023-12-31"]}
    assert json.loads(notes_store.to_json([1, "a"])) == [1, "a"]


def test_the_other_functions_stay():
    notes = notes_store.add_note([], "A", "first")
    assert notes == [{"title": "A", "body": "first"}]
    assert notes_store.titles(notes + [{"title": "B", "body": ""}]) == ["A", "B"]
