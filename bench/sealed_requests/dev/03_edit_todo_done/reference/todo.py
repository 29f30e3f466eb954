import sys

from items import make_item
from storage import load, save

USAGE = "usage: todo.py add TEXT | list | done N"


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
            mark = "x" if item.get("done") else " "
            print(f"{number}. [{mark}] {item['text']}")
    elif command == "done":
        if len(rest) != 1 or not rest[0].isdigit() or not 1 <= int(rest[0]) <= len(items):
            print(f"no item {' '.join(rest)}")
            return 1
        items[int(rest[0]) - 1]["done"] = True
        save(path, items)
        print(f"done #{rest[0]}")
    else:
        print(USAGE)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
