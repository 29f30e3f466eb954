import wordfreq


def test_word_counts():
    assert wordfreq.word_counts("the cat The dog") == {"the": 2, "cat": 1, "dog": 1}
    assert wordfreq.word_counts("a\nb  a") == {"a": 2, "b": 1}
    assert wordfreq.word_counts("") == {}
