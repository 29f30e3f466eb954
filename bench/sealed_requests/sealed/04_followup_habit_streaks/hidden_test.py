import hashlib
from datetime import date
from pathlib import Path

from habits import longest_streak
from test_habits import test_current_streak, test_rate  # noqa: F401
from tracker import Tracker

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_habits.py": "388e0c69c310822777575cfdda4e0d592f0fbef7fd43dfd66b4e1caed0e42a8c", "tracker.py": "1924312dadb93292f76a4594858408e80efe81abda120b9776380281094c1a3d"}


def d(day, month=1):
    return date(2024, month, day)


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_longest_streak_in_order():
    assert longest_streak([d(1), d(2), d(3), d(5), d(6)]) == 3
    assert longest_streak([d(30), d(31), d(1, 2), d(2, 2), d(4, 2)]) == 4
    assert longest_streak([d(7)]) == 1
    assert longest_streak([]) == 0


def test_duplicates_and_any_order():
    assert longest_streak([d(6), d(5), d(2), d(2), d(1), d(3), d(3)]) == 3
    assert longest_streak([d(10), d(10), d(10)]) == 1
    assert longest_streak([d(4), d(1), d(3), d(2), d(9)]) == 4


def test_the_tracker_still_works(tmp_path):
    tracker = Tracker(str(tmp_path / "h.json"))
    for day in (1, 2, 3):
        tracker.mark("run", d(day))
    tracker.save()
    assert Tracker(str(tmp_path / "h.json")).streak("run", today=d(3)) == 3
