def longest_word(path):
    best = ""
    with open(path) as fh:
        for line in fh:
            word = line.strip()
            if len(word) > len(best):
                best = word
    return best
