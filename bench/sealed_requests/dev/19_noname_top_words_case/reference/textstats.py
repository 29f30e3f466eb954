from collections import Counter

from cleaning import normalize


def word_count(text):
    return len(text.split())


def top_words(text, n=10):
    """The n most common words as (word, count) pairs, most common first."""
    return Counter(normalize(text).split()).most_common(n)


def average_word_length(text):
    words = text.split()
    return sum(len(w) for w in words) / len(words) if words else 0.0
