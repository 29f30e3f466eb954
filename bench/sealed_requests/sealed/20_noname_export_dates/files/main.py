import sys

from export import export_rows
from transactions import SAMPLE, balance


def main(argv):
    sys.stdout.write(export_rows(SAMPLE))
    print(f"balance: {balance(SAMPLE):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
