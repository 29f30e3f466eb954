import hashlib
from pathlib import Path

import shift
from srt import format_stamp, parse_cues, parse_stamp, write_cues
from test_shift import test_earlier_stops_at_zero, test_later  # noqa: F401
from test_srt import test_bad_stamp, test_format_stamp, test_parse_cues, test_parse_stamp  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_srt.py": "59e24f102850fd2d4b364a7145b6729afbf8cfbe5af67578ee0b3c3825578753", "test_shift.py": "8e2a001cc3eaf42ac84799ed2b9096f007174a096e1b4ff5c3fc1d018668cbf3", "shift.py": "4d4180ff17ba457d4fd5b45e95cb993844edf36587be587cdd357b0f5b5bdf5b"}

FILM = """1
00:00:02,040 --> 00:00:04,090
We have to go back.

2
00:10:00,000 --> 00:10:01,999
Not yet.
"""


def test_the_tests_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_stamps_round_trip():
    for ms in (0, 5, 40, 99, 100, 999, 1001, 59_999, 3_600_000, 36_000_090):
        assert parse_stamp(format_stamp(ms)) == ms
    assert format_stamp(7) == "00:00:00,007"
    assert format_stamp(36_000_090) == "10:00:00,090"


def test_a_shifted_file_keeps_its_times(tmp_path):
    path = tmp_path / "film.srt"
    path.write_text(FILM, encoding="utf-8")
    shift.shift_file(path, 1000)
    assert parse_cues(path.read_text(encoding="utf-8")) == [
        (3040, 5090, "We have to go back."),
        (601_000, 602_999, "Not yet."),
    ]
    assert "00:00:03,040 --> 00:00:05,090" in write_cues(parse_cues(path.read_text(encoding="utf-8")))
