"""Text a coder's whole-file answer drops without being asked is put back: blank lines and the
module docstring.

Small coders rewrite a file with one blank line between functions where it had two (the 0.5B did
so on a user's stats.py asked only to add a check to mean()), and start the file at its first
import or class, leaving out the docstring above it (the 0.5B, asked to add a method to todo.py).
The diff then shows changes the user never asked for, and their bytes are gone. Blank lines the
answer drops and puts nothing in place of are restored, unless the request is about blank lines or
layout; a module docstring the answer lacks is put back, unless the request is about docstrings.
"""

from __future__ import annotations

import ast
import difflib
import re

ABOUT_LAYOUT = re.compile(
    r"\b(blank|empty)\s+lines?\b|\breformat|\bpep\s?8\b|\bblack\b|\bwhitespace\b|\bspacing\b", re.IGNORECASE
)


ABOUT_DOCSTRINGS = re.compile(r"\bdoc\s?strings?\b", re.IGNORECASE)


def keep_untouched(old: str, new: str, request: str = "") -> str:
    """`new` with the blank lines and the module docstring of `old` it dropped put back."""
    return restore_blank_lines(old, restore_module_docstring(old, new, request), request)


def restore_module_docstring(old: str, new: str, request: str = "") -> str:
    """`new`, opened by `old`'s docstring (and any comments above it) when it has none of its own."""
    if ABOUT_DOCSTRINGS.search(request):
        return new
    head = _docstring_head(old)
    if head is None:
        return new
    try:
        tree = ast.parse(new)
    except SyntaxError:  # not Python: leave it to the checks to say so
        return new
    if ast.get_docstring(tree, clean=False) is not None:
        return new
    return head + new


def _docstring_head(text: str) -> str | None:
    """The file's lines up to the end of its module docstring, with the blank lines after it."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    if ast.get_docstring(tree, clean=False) is None:
        return None
    lines = text.splitlines(keepends=True)
    end = tree.body[0].end_lineno or 1
    while end < len(lines) and not lines[end].strip():
        end += 1
    head = "".join(lines[:end])
    return head if head.endswith("\n") else head + "\n"


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
