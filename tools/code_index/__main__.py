"""``python -m tools.code_index index|search ...`` (the same as ``app.py index|search``)."""

import offline  # noqa: F401, I001  (must run before any heavy import)

import argparse
import sys

from .cli import cli_index, cli_search
from .hybrid_search import MODES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.code_index")
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_index = sub.add_parser("index", help="build or refresh the code index")
    p_index.add_argument("--workspace", default=".")
    p_index.add_argument("--json", action="store_true")
    p_search = sub.add_parser("search", help="search the code index")
    p_search.add_argument("query")
    p_search.add_argument("--workspace", default=".")
    p_search.add_argument("-k", type=int, default=8)
    p_search.add_argument("--glob", default=None, help="keep paths matching this glob")
    p_search.add_argument("--mode", choices=MODES, default="hybrid")
    p_search.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.cmd == "index":
        return cli_index(args.workspace, args.json)
    return cli_search(args.query, args.workspace, args.k, args.json, args.glob, args.mode)


if __name__ == "__main__":
    sys.exit(main())
