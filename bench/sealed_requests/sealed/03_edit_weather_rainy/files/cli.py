import sys

from readings import parse_lines
from summary import summarize


def main(argv):
    with open(argv[0] if argv else "may.csv", encoding="utf-8") as fh:
        result = summarize(parse_lines(fh))
    for key, value in result.items():
        print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
