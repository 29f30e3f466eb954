from policy import accept, expired


def test_reuse():
    assert accept("Abcdefg1!", old_passwords=["Abcdefg1!"]) == (False, ["used before"])


def test_expiry_is_after_90_days():
    assert not expired(90)
    assert expired(91)
