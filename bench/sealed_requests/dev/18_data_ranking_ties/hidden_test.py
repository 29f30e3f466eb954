import hashlib
import json
from pathlib import Path

import board
from ranking import top_students
from roster import load
from test_ranking import test_passed, test_top  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_ranking.py": "fa022a405dbae63e06961981820d31d1ca444f21928266dc82233d23e4954a9c", "roster.py": "a6ef92104bba41e878990e8c2cf0d818e5d453daf53c62d98b8c5d2bc885c009", "board.py": "4bbf645edea824af163a054ce756ba0c5732c033bf3383ca0104aaaa891c949a"}
BEFORE = {"Mia": 91, "Leo": 88, "Ava": 75, "Noah": 88, "Eli": 91, "Ivy": 64}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_zoe_is_added_and_nobody_else_changed():
    students = json.loads((HERE / "students.json").read_text())
    assert {s["name"]: s["score"] for s in students} == {**BEFORE, "Zoe": 88}
    assert len(students) == 7


def test_ties_in_name_order():
    students = load(str(HERE / "students.json"))
    assert top_students(students, 5) == ["Eli", "Mia", "Leo", "Noah", "Zoe"]
    assert top_students([{"name": "b", "score": 1}, {"name": "a", "score": 1}, {"name": "c", "score": 2}], 3) == [
        "c",
        "a",
        "b",
    ]


def test_the_board_runs(capsys):
    board.main(str(HERE / "students.json"))
    out = capsys.readouterr().out
    assert "top: Eli, Mia, Leo" in out and "6 of 7 passed" in out
