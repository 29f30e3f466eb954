import os
from pathlib import Path


def count_lines(path):
    with open(path, encoding="utf-8") as fh:
        return sum(1 for _ in fh)


def is_hidden(path):
    return os.path.basename(path).startswith(".")


def file_size(path):
    return os.path.getsize(path)


def find_by_suffix(root, suffix):
    base = Path(root)
    return sorted(
        p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file() and p.suffix == suffix
    )


def with_new_suffix(path, suffix):
    return str(Path(path).with_suffix(suffix))
