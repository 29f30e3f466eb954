import argparse


def parse_args(argv):
    parser = argparse.ArgumentParser(description="List files.")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--sort", choices=["name", "size"], default="name")
    parser.add_argument("--verbose", action="store_true")
    return parser.parse_args(argv)
