import filetools


def test_find_by_suffix(tmp_path):
    for rel in ["a.py", "b.txt", "sub/c.py", "sub/deeper/d.py", "sub/e.pyc", "sub/deeper/notes.md"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x = 1\n")
    assert filetools.find_by_suffix(str(tmp_path), ".py") == ["a.py", "sub/c.py", "sub/deeper/d.py"]
    assert filetools.find_by_suffix(str(tmp_path), ".md") == ["sub/deeper/notes.md"]
    assert filetools.find_by_suffix(str(tmp_path), ".csv") == []


def test_with_new_suffix():
    assert filetools.with_new_suffix("report.txt", ".csv") == "report.csv"
    assert filetools.with_new_suffix("data/v1.2/notes.txt", ".md") == "data/v1.2/notes.md"


def test_the_other_functions_stay(tmp_path):
    path = tmp_path / "three.txt"
    path.write_text("a\nb\nc\n", encoding="utf-8")
    assert filetools.count_lines(str(path)) == 3
    assert filetools.file_size(str(path)) == 6
    assert filetools.is_hidden("x/.env") and not filetools.is_hidden("x/env")
