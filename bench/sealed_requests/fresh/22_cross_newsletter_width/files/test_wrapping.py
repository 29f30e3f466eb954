from wrapping import bullet, wrap


def test_wrap():
    assert wrap("the quick brown fox jumps", 10) == ["the quick", "brown fox", "jumps"]


def test_long_word_alone():
    assert wrap("a extraordinarily b", 5) == ["a", "extraordinarily", "b"]


def test_bullet():
    assert bullet("one two three four", 10) == ["- one two", "  three", "  four"]
