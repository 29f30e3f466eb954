from morse import encode


def test_sos():
    assert encode("SOS") == "... --- ..."


def test_words():
    assert encode("HI THERE") == ".... .. / - .... . .-. ."


def test_digits():
    assert encode("R2D2") == ".-. ..--- -.. ..---"
