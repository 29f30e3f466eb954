"""Blank lines a coder's whole-file answer closes up are put back.

Small coders rewrite a file with one blank line between functions where it had two (the 0.5B did
so on a user's stats.py asked only to add a check to mean()): the diff then shows changes the
user never asked for, and their bytes are gone. Blank lines the answer drops and puts nothing in
place of are restored, unless the request is about blank lines or layout.
"""

from __future__ import annotations

import difflib
import re

ABOUT_LAYOUT = re.compile(
    r"\b(blank|empty)\s+lines?\b|\breformat|\bpep\s?8\b|\bblack\b|\bwhitespace\b|\bspacing\b", re.IGNORECASE
)


def restore_blank_lines(old: str, new: str, request: str = "") -> str:
    """`new`, with every run of blank lines of `old` that it deletes outright put back."""
    if ABOUT_LAYOUT.search(request):
        return new
    before, after = old.splitlines(keepends=True), new.splitlines(keepends=True)
    out: list[str] = []
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        gone, given = before[i1:i2], after[j1:j2]
        if tag == "delete" and _blanks(gone) == len(gone):
            out.extend(gone)
        elif tag == "replace" and _blanks(gone) < len(gone) and _blanks(given) < len(given):
            # A changed line next to the blank lines takes them into its block: compare the
            # block's leading and trailing blank lines instead.
            lead = gone[: max(0, _blanks(gone) - _blanks(given))]
            tail_gone, tail_given = _blanks(gone[::-1]), _blanks(given[::-1])
            tail = gone[len(gone) - tail_gone : len(gone) - tail_given] if tail_gone > tail_given else []
            out.extend(lead + given + tail)
        else:
            out.extend(given)
    return "".join(out)


def _blanks(lines: list[str]) -> int:
    """How many blank lines the list starts with."""
    count = 0
    for line in lines:
        if line.strip():
            break
        count += 1
    return count
