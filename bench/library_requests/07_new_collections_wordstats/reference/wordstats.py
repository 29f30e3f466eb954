import re
from collections import Counter, defaultdict


def top_words(text, n):
    return Counter(re.findall(r"[a-z]+", text.lower())).most_common(n)


def by_first_letter(words):
    groups = defaultdict(list)
    for word in words:
        groups[word[0]].append(word)
    return dict(groups)
