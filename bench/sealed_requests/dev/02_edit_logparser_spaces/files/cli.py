import sys

from logparse import parse_file
from stats import count_by_level, first_error


def main(argv):
    entries = parse_file(argv[0] if argv else "app.log")
    for level, count in sorted(count_by_level(entries).items()):
        print(f"{level}: {count}")
    error = first_error(entries)
    if error:
        print(f"first error at {error['timestamp']}: {error['message']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
