import wordstats

TEXT = "The cat saw the dog. THE dog, and the cat... and a bird! The end. The dog."


def test_top_words():
    assert [tuple(pair) for pair in wordstats.top_words(TEXT, 2)] == [("the", 6), ("dog", 3)]
    assert [tuple(pair) for pair in wordstats.top_words("b a b c b a", 2)] == [("b", 3), ("a", 2)]
    assert list(wordstats.top_words("", 3)) == []


def test_by_first_letter():
    groups = wordstats.by_first_letter(["apple", "bean", "avocado", "cherry", "banana"])
    assert dict(groups) == {"a": ["apple", "avocado"], "b": ["bean", "banana"], "c": ["cherry"]}
    assert dict(wordstats.by_first_letter([])) == {}
