"""Version numbers like '1.4.2' or 'v2.0.0'."""


def parse(version):
    """'v1.4.2' -> (1, 4, 2)"""
    text = version.strip().lstrip("v")
    parts = text.split(".")
    if len(parts) != 3 or not all(part.isdigit() for part in parts):
        raise ValueError(f"not a version: {version!r}")
    return tuple(int(part) for part in parts)


def is_newer(candidate, current):
    return parse(candidate) > parse(current)


def latest(versions):
    if not versions:
        raise ValueError("no versions")
    return max(versions, key=parse)
