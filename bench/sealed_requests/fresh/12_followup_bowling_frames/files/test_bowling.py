from bowling import score


def test_gutter_game():
    assert score([0] * 20) == 0


def test_all_ones():
    assert score([1] * 20) == 20


def test_spare():
    assert score([5, 5, 3] + [0] * 17) == 16


def test_strike():
    assert score([10, 3, 4] + [0] * 16) == 24


def test_perfect_game():
    assert score([10] * 12) == 300


def test_all_spares():
    assert score([5] * 21) == 150
