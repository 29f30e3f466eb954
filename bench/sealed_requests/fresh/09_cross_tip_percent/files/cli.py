import sys

from receipt import receipt_text


def main(argv):
    """python cli.py PEOPLE dish=price dish=price ..."""
    people = int(argv[0])
    items = [(arg.split("=")[0], float(arg.split("=")[1])) for arg in argv[1:]]
    print(receipt_text(items, people))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
