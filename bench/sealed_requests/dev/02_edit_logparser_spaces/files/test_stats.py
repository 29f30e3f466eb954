from stats import count_by_level, first_error

ENTRIES = [
    {"timestamp": "t1", "level": "INFO", "message": "a"},
    {"timestamp": "t2", "level": "ERROR", "message": "b"},
    {"timestamp": "t3", "level": "INFO", "message": "c"},
]


def test_count_by_level():
    assert count_by_level(ENTRIES) == {"INFO": 2, "ERROR": 1}


def test_first_error():
    assert first_error(ENTRIES)["timestamp"] == "t2"
    assert first_error(ENTRIES[:1]) is None
