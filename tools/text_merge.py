"""A line-based three-way merge, for undo and redo of a run whose files changed again later.

Undo applies the reverse of a run's change (the file as the run left it -> as it was before) to the
file as it is now, so that edits made after the run (by hand or by a later run) stay. Only where
both changed the same lines does it stop: that is a conflict, reported with the lines as the user
sees them now, and the caller then changes nothing.

Two changes conflict when their base ranges overlap, or when one is an insertion at a point that
touches the other (which goes first would be a guess). Changes to neighbouring lines do not: the
run changed line 5, the user line 6, both are kept. Lines keep their own endings (CRLF stays CRLF)
and a last line without a newline stays without one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from difflib import SequenceMatcher

MAX_MERGE_BYTES = 2 * 1024 * 1024  # larger files are not merged (SequenceMatcher is quadratic)

_Hunk = tuple[int, int, int, int, int]  # base i1, i2, side j1, j2, side (0: ours, 1: theirs)


@dataclass(frozen=True)
class MergeResult:
    text: str | None  # None when a change conflicts
    conflicts: list[tuple[int, int]] = field(default_factory=list)  # 1-based lines of `ours`, inclusive

    def where(self) -> str:
        """The conflicting lines in words: 'lines 3-4, line 9'."""
        return ", ".join(f"line {a}" if a >= b else f"lines {a}-{b}" for a, b in self.conflicts)


def _hunks(base: list[str], other: list[str], side: int) -> list[_Hunk]:
    matcher = SequenceMatcher(None, base, other, autojunk=False)
    return [(i1, i2, j1, j2, side) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _joins(cluster: list[_Hunk], hunk: _Hunk) -> bool:
    end = max(h[1] for h in cluster)
    if hunk[0] < end:
        return True
    # Touching: an insertion at the other change's edge could go before or after it.
    inserts = hunk[0] == hunk[1] or any(h[0] == h[1] == end for h in cluster)
    return hunk[0] == end and inserts


def _clusters(ours: list[_Hunk], theirs: list[_Hunk]) -> list[list[_Hunk]]:
    clusters: list[list[_Hunk]] = []
    for hunk in sorted(ours + theirs, key=lambda h: (h[0], h[1], h[4])):
        if clusters and _joins(clusters[-1], hunk):
            clusters[-1].append(hunk)
        else:
            clusters.append([hunk])
    return clusters


def _side_text(base: list[str], lines: list[str], hunks: list[_Hunk], lo: int, hi: int) -> list[str]:
    """base[lo:hi] as one side changed it."""
    out, pos = [], lo
    for i1, i2, j1, j2, _side in hunks:
        out += base[pos:i1] + lines[j1:j2]
        pos = i2
    return out + base[pos:hi]


def merge3(base: str, ours: str, theirs: str) -> MergeResult:
    """`base` changed into `ours` and into `theirs`: both changes, or the conflicts."""
    base_l, sides = base.splitlines(keepends=True), (ours.splitlines(True), theirs.splitlines(True))
    out: list[str] = []
    conflicts: list[tuple[int, int]] = []
    pos = 0
    shift = 0  # ours' line number minus base's, before the current cluster
    for cluster in _clusters(_hunks(base_l, sides[0], 0), _hunks(base_l, sides[1], 1)):
        lo, hi = min(h[0] for h in cluster), max(h[1] for h in cluster)
        out += base_l[pos:lo]
        texts = [_side_text(base_l, sides[s], [h for h in cluster if h[4] == s], lo, hi) for s in (0, 1)]
        changed = {h[4] for h in cluster}
        if changed == {0, 1} and texts[0] != texts[1]:
            start = lo + shift + 1
            conflicts.append((start, max(start, lo + shift + len(texts[0]))))
        out += texts[0] if 0 in changed else texts[1]
        shift += len(texts[0]) - (hi - lo)
        pos = hi
    out += base_l[pos:]
    return MergeResult(None if conflicts else "".join(out), conflicts)


def decoded(data: bytes) -> str | None:
    """Text to merge, or None: not UTF-8, or too big to merge."""
    if len(data) > MAX_MERGE_BYTES or b"\x00" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None
