from shop import cart_line, greeting


def test_english():
    assert greeting("Ann") == "Hello, Ann!"


def test_german():
    assert cart_line(3, "de") == "Sie haben 3 Artikel im Warenkorb."
