from agenda import agenda
from pomodoro import finish_time, plan


def test_two_sessions():
    assert plan("09:00", 2) == [("work", "09:00", "09:25"), ("break", "09:25", "09:30"), ("work", "09:30", "09:55")]


def test_finish_time():
    assert finish_time("09:00", 3) == "10:25"
    assert finish_time("09:00", 3, work=50, short_break=10) == "11:50"


def test_agenda():
    assert agenda("14:00", 1) == "14:00-14:25  focus"
