from codes import decode, encode


def test_round_trip():
    for n in (0, 1, 61, 62, 12345):
        assert decode(encode(n)) == n


def test_small_numbers():
    assert encode(1) == "1"
    assert encode(62) == "10"
