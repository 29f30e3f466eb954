"""Move every subtitle earlier or later: python shift.py movie.srt -1500"""

import sys

from srt import parse_cues, write_cues


def shift(cues, delta_ms):
    """Cues moved by delta_ms; a cue pushed before the start of the film starts at 0."""
    return [(max(0, start + delta_ms), max(0, end + delta_ms), text) for start, end, text in cues]


def shift_file(path, delta_ms):
    with open(path, encoding="utf-8") as fh:
        cues = parse_cues(fh.read())
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(write_cues(shift(cues, delta_ms)))


if __name__ == "__main__":
    shift_file(sys.argv[1], int(sys.argv[2]))
