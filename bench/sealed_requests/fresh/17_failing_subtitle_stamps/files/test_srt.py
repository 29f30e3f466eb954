import pytest
from srt import format_stamp, parse_cues, parse_stamp

SAMPLE = """1
00:00:01,500 --> 00:00:03,250
Hello there.

2
00:01:02,000 --> 00:01:04,750
General Kenobi!
"""


def test_parse_stamp():
    assert parse_stamp("01:02:03,450") == 3723450
    assert parse_stamp("00:00:00,007") == 7


def test_bad_stamp():
    with pytest.raises(ValueError):
        parse_stamp("1:2:3.4")


def test_format_stamp():
    assert format_stamp(3723450) == "01:02:03,450"
    assert format_stamp(1000) == "00:00:01,000"
    assert format_stamp(61_005) == "00:01:01,005"


def test_parse_cues():
    assert parse_cues(SAMPLE) == [(1500, 3250, "Hello there."), (62000, 64750, "General Kenobi!")]
