"""SubRip (.srt) subtitles: timestamps and cues."""

import re

_STAMP = re.compile(r"(\d+):(\d\d):(\d\d),(\d\d\d)")


def parse_stamp(text):
    """'01:02:03,450' -> milliseconds"""
    match = _STAMP.fullmatch(text.strip())
    if not match:
        raise ValueError(f"bad timestamp: {text!r}")
    hours, minutes, seconds, millis = map(int, match.groups())
    return ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis


def format_stamp(ms):
    """milliseconds -> '01:02:03,450'"""
    if ms < 0:
        raise ValueError("negative time")
    seconds, millis = divmod(ms, 1000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d},{millis:03d}"


def parse_cues(text):
    """The blocks of an .srt file -> [(start_ms, end_ms, text), ...]"""
    cues = []
    for block in text.strip().split("\n\n"):
        lines = block.strip().splitlines()
        start, end = (parse_stamp(part) for part in lines[1].split("-->"))
        cues.append((start, end, "\n".join(lines[2:])))
    return cues


def write_cues(cues):
    blocks = []
    for number, (start, end, text) in enumerate(cues, 1):
        blocks.append(f"{number}\n{format_stamp(start)} --> {format_stamp(end)}\n{text}\n")
    return "\n".join(blocks)
