from theme import css, text_colour


def test_text_colour():
    assert text_colour("#ffd700") == "black"
    assert text_colour("#2f4f4f") == "white"


def test_css():
    assert "--danger-text: white;" in css()
