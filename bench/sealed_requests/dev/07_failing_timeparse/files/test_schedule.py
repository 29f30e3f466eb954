from schedule import end_time, fits


def test_end_time():
    assert end_time(600, "45m") == 645


def test_end_time_wraps():
    assert end_time(23 * 60 + 30, "45m") == 15


def test_a_slot_of_exactly_the_length_fits():
    assert fits([30, 45, 60], "45m") == [45, 60]
