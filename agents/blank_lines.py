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
        if tag == "delete" and all(not line.strip() for line in before[i1:i2]):
            out.extend(before[i1:i2])
        else:
            out.extend(after[j1:j2])
    return "".join(out)
