from blink import duration, timings


def test_timings():
    assert timings(".- / -") == [(True, 1), (False, 1), (True, 3), (False, 7), (True, 3)]


def test_duration():
    assert duration("...", unit_ms=100) == 500
