import os


def count_lines(path):
    with open(path, encoding="utf-8") as fh:
        return sum(1 for _ in fh)


def is_hidden(path):
    return os.path.basename(path).startswith(".")


def file_size(path):
    return os.path.getsize(path)
