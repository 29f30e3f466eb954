def count_words(text):
    return len(text.split(" "))


def longest_word(text):
    return max(text.split(), key=len) if text.split() else ""


def capitalize_words(text):
    return " ".join(word.capitalize() for word in text.split())
