import argparse
from pathlib import Path

from notes.render import render_list
from notes.store import NoteStore

DEFAULT = Path.home() / ".notes.json"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="notes")
    parser.add_argument("--file", type=Path, default=DEFAULT)
    sub = parser.add_subparsers(dest="command", required=True)
    add = sub.add_parser("add")
    add.add_argument("title")
    add.add_argument("--body", default="")
    add.add_argument("--tag", action="append", default=[])
    sub.add_parser("list")
    find = sub.add_parser("find")
    find.add_argument("tag")
    remove = sub.add_parser("remove")
    remove.add_argument("number", type=int)
    args = parser.parse_args(argv)

    store = NoteStore(args.file)
    if args.command == "add":
        store.add(args.title, args.body, args.tag)
        store.save()
    elif args.command == "list":
        print(render_list(store.notes))
    elif args.command == "find":
        print(render_list(store.find(args.tag)))
    elif args.command == "remove":
        store.remove(args.number)
        store.save()


if __name__ == "__main__":
    main()
