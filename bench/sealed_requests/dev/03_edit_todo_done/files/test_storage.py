from items import make_item
from storage import load, save


def test_missing_file_is_empty(tmp_path):
    assert load(tmp_path / "nope.json") == []


def test_round_trip(tmp_path):
    path = tmp_path / "todos.json"
    save(path, [make_item("buy milk")])
    assert load(path) == [{"text": "buy milk", "done": False}]
