import sys

from cleaning import sentences
from textstats import top_words, word_count


def main(argv):
    with open(argv[0], encoding="utf-8") as fh:
        text = fh.read()
    print(f"{word_count(text)} words, {len(sentences(text))} sentences")
    for word, count in top_words(text, 5):
        print(f"{count:5d} {word}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
