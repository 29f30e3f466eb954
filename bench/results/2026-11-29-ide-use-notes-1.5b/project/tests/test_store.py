from notes.store import NoteStore


def make(tmp_path):
    store = NoteStore(tmp_path / "n.json")
    store.add("milk", tags=["Shopping"])
    store.add("call mum", tags=["family"])
    store.add("bread", tags=["shopping"])
    return store


def test_find_ignores_case(tmp_path):
    assert [n.title for n in make(tmp_path).find("SHOPPING")] == ["milk", "bread"]


def test_remove_uses_the_listed_number(tmp_path):
    store = make(tmp_path)
    store.remove(1)
    assert [n.title for n in store.notes] == ["call mum", "bread"]


def test_save_and_load(tmp_path):
    store = make(tmp_path)
    store.save()
    again = NoteStore(tmp_path / "n.json")
    assert [n.title for n in again.notes] == ["milk", "call mum", "bread"]
