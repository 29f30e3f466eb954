import hashlib
from pathlib import Path

import agenda
from pomodoro import finish_time, plan
from test_pomodoro import test_agenda, test_finish_time, test_two_sessions  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_pomodoro.py": "8785328b4daa5b22c6ff8c36e9dd46ef06ede4a13b5e01f9ab606f37530aba22", "agenda.py": "7f67f9e25b647772e25d77abf23eb118a3ac6de964b1c96e990d27b30f636b94"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def _minutes(hhmm):
    hours, minutes = hhmm.split(":")
    return int(hours) * 60 + int(minutes)


def _breaks(blocks):
    return [_minutes(ends) - _minutes(begins) for kind, begins, ends in blocks if kind != "work"]


def test_every_fourth_break_is_long():
    blocks = plan("08:00", 9)
    assert [kind for kind, _, _ in blocks].count("work") == 9
    assert _breaks(blocks) == [5, 5, 5, 15, 5, 5, 5, 15]
    assert blocks[-1] == ("work", "12:20", "12:45")
    assert finish_time("09:00", 5) == "11:35"
    assert _breaks(plan("09:00", 4)) == [5, 5, 5]


def test_the_long_break_is_settable():
    assert _breaks(plan("09:00", 7, long_break=30, long_every=2)) == [5, 30, 5, 30, 5, 30]
    assert _breaks(plan("09:00", 5, long_break=20)) == [5, 5, 5, 20]
    assert _breaks(plan("09:00", 7, long_every=3)) == [5, 5, 15, 5, 5, 15]
    assert finish_time("09:00", 3, work=50, short_break=10, long_break=30, long_every=2) == "12:10"


def test_the_agenda_shows_the_long_break():
    assert "10:55-11:10  rest" in agenda.agenda("09:00", 5)
