import sys

from items import make_item
from storage import load, save

USAGE = "usage: todo.py add TEXT | list"


def main(argv, path="todos.json"):
    if not argv:
        print(USAGE)
        return 1
    command, rest = argv[0], argv[1:]
    items = load(path)
    if command == "add":
        items.append(make_item(" ".join(rest)))
        save(path, items)
        print(f"added #{len(items)}")
    elif command == "list":
        for number, item in enumerate(items, start=1):
            print(f"{number}. {item['text']}")
    else:
        print(USAGE)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
