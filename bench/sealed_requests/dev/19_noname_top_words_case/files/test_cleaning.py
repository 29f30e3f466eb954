from cleaning import normalize, sentences


def test_normalize():
    assert normalize("Hello,  World!") == "hello world"


def test_sentences():
    assert sentences("One. Two! Three?") == ["One", "Two", "Three"]
