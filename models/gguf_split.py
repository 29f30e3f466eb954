"""Read a model stored as llama.cpp split files (`name-00001-of-00003.gguf`, ...) as one model.

The first file holds the metadata and only its own tensors; the planner must count every tensor of
the set, or it would place a 7B's weights as if a sixth of them did not exist. llama.cpp itself
loads the set when given the first file.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from models.gguf_reader import GGUFError, GGUFInfo, read_gguf

_SPLIT_NAME = re.compile(r"^(?P<prefix>.+)-(?P<index>\d{5})-of-(?P<count>\d{5})\.gguf$")


def split_siblings(path: Path) -> list[Path] | None:
    """Every file of the split set `path` starts (in order), or None when `path` is not a first split."""
    match = _SPLIT_NAME.match(path.name)
    if match is None or int(match["index"]) != 1:
        return None
    count = int(match["count"])
    return [path.with_name(f"{match['prefix']}-{n:05d}-of-{count:05d}.gguf") for n in range(1, count + 1)]


def read_model_gguf(path: str | Path) -> GGUFInfo:
    """read_gguf, but a first split file brings the tensors of the whole set (and its total size)."""
    first = read_gguf(path)
    count = int(first.metadata.get("split.count", 1) or 1)
    siblings = split_siblings(Path(path)) if count > 1 else None
    if not siblings:
        return first
    if len(siblings) != count:
        raise GGUFError(f"{first.path.name} says the model has {count} split files, its name {len(siblings)}")
    tensors, size = list(first.tensors), first.file_size
    for sibling in siblings[1:]:
        if not sibling.is_file():
            raise GGUFError(f"{first.path.name} is one of {count} split files and {sibling.name} is missing")
        part = read_gguf(sibling)
        tensors += part.tensors
        size += part.file_size
    return replace(first, tensors=tensors, file_size=size)
