"""Parse lines like '2024-03-01 12:00:05 ERROR disk full'."""

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def parse_line(line):
    parts = line.split(None, 3)
    if not parts:
        return None
    day, time, level = parts[:3]
    message = parts[3].strip() if len(parts) > 3 else ""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    return {"timestamp": f"{day} {time}", "level": level, "message": message}


def parse_file(path):
    with open(path, encoding="utf-8") as fh:
        return [entry for entry in (parse_line(line) for line in fh) if entry is not None]
