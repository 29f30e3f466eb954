import hashlib
from pathlib import Path

from schedule import end_time
from test_schedule import test_end_time, test_end_time_wraps  # noqa: F401
from test_timeparse import test_combined_units, test_format, test_not_a_duration, test_single_units  # noqa: F401
from timeparse import parse_duration

HERE = Path(__file__).resolve().parent
# test_schedule.py's last test fails for a reason of its own (a bug in schedule.py nobody asked about).
UNCHANGED = {"test_timeparse.py": "5131b06c899ada86c228bba6e5a5901ebfbad240527b12946bfc2fead7933c50", "test_schedule.py": "7ecf0d20c424475636fe7d881a8803c55e627be95879151a54aea531698efd54"}


def test_the_tests_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_more_durations():
    assert parse_duration("3h15m") == 11700
    assert parse_duration(" 10M ") == 600
    assert parse_duration("2m5s") == 125
    assert end_time(60, "1h30m") == 150
