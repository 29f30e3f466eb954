import words


def test_count_words():
    assert words.count_words("a  b\nc") == 3
    assert words.count_words("") == 0
    assert words.count_words("  hi  ") == 1
    assert words.count_words("one two") == 2


def test_the_other_functions_stay():
    assert words.longest_word("a bbb cc") == "bbb"
    assert words.capitalize_words("hello big world") == "Hello Big World"
