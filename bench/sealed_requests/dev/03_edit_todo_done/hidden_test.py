import hashlib
import subprocess
import sys
from pathlib import Path

import items
import todo
from storage import load
from test_storage import test_missing_file_is_empty, test_round_trip  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_storage.py": "e8dacea1765f03e8cf258d22385eda7924791873fd2b41bd4bdc55d2832475f2", "storage.py": "cbd2b70a0a16c58c30823e4466428894e78b09db524a98ad167d20147e7c1d43", "items.py": "40374d652a2ef0c89aeb531c6d7fb7c2997a67099d782084da1b8da37f5086db"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def _line_of(out, text):
    return next(line for line in out.splitlines() if text in line)


def test_done_marks_and_saves(tmp_path, capsys):
    path = str(tmp_path / "todos.json")
    for text in ("buy milk", "call mum", "fix bike"):
        assert todo.main(["add", *text.split()], path=path) == 0
    assert todo.main(["done", "2"], path=path) == 0
    assert [item["done"] for item in load(path)] == [False, True, False]
    capsys.readouterr()
    assert todo.main(["list"], path=path) == 0
    out = capsys.readouterr().out
    assert "[x]" in _line_of(out, "call mum")
    assert "[ ]" in _line_of(out, "buy milk") and "[ ]" in _line_of(out, "fix bike")
    assert _line_of(out, "buy milk").lstrip().startswith("1")


def test_add_still_works(tmp_path):
    path = str(tmp_path / "todos.json")
    assert todo.main(["add", "water", "plants"], path=path) == 0
    assert load(path) == [items.make_item("water plants")]


def test_the_script_starts(tmp_path):
    done = subprocess.run(
        [sys.executable, str(HERE / "todo.py"), "list"], cwd=tmp_path, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
