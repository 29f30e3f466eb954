from pwcheck import problems, strength


def test_short():
    assert "too short" in problems("a1!")


def test_common_in_any_case():
    assert "too common" in problems("PassWord")


def test_needs_a_capital_and_a_lower_case_letter():
    assert "no upper case letter" in problems("abcdefg1!")
    assert "no lower case letter" in problems("ABCDEFG1!")
    assert problems("Abcdefg1!") == []


def test_strength():
    assert strength("abc") == "weak"
    assert strength("Abcdefg1!") == "ok"
    assert strength("Abcdefg1!xyz7") == "strong"
    assert strength("abcdefg1!xyz7") == "weak"
