"""Text a coder's whole-file answer drops without being asked is put back: blank lines and the
module docstring.

Small coders rewrite a file with one blank line between functions where it had two (the 0.5B did
so on a user's stats.py asked only to add a check to mean()), and start the file at its first
import or class, leaving out the docstring above it (the 0.5B, asked to add a method to todo.py).
The diff then shows changes the user never asked for, and their bytes are gone. Blank lines the
answer drops and puts nothing in place of are restored, unless the request is about blank lines or
layout; a module docstring the answer lacks is put back, unless the request is about docstrings.
The file keeps its own ending: an answer's extra (or missing) newlines after the last line, which
made an unasked file differ by one byte (sealed dev set, 03_edit_todo_done, 0.5B), are not taken.
"""

from __future__ import annotations

import ast
import difflib

from agents.request import NO_REQUEST, RequestFacts
from agents.rules.rule import Stage, rule
from agents.rules.write.draft import WriteDraft


def keep_untouched(old: str, new: str, facts: RequestFacts = NO_REQUEST) -> str:
    """`new` with the comments, blank lines, the module docstring and the file's ending of `old`
    it dropped or changed outside the code it changed put back."""
    new = restore_comments(old, new, facts)
    kept = restore_blank_lines(old, restore_module_docstring(old, new, facts), facts)
    return kept if facts.about_layout else restore_file_end(old, kept)


def restore_comments(old: str, new: str, facts: RequestFacts = NO_REQUEST) -> str:
    """`new`, with each top-level statement whose code it left as it was written as `old` wrote it
    (its comments inside and above it), and `old` whole when no code changed at all. Asked to
    "make it faster", the 0.5B answered the file less the user's one hand-written comment; the
    round was kept. A request about comments may change them."""
    if facts.about_comments or facts.about_layout:
        return new
    old_parts, new_parts = _segments(old), _segments(new)
    if old_parts is None or new_parts is None:
        return new
    if [key for key, _, _ in old_parts[0]] == [key for key, _, _ in new_parts[0]]:
        return old  # the same code: what differs is comments and layout, which no one asked for
    unused = {}
    for key, leading, body in old_parts[0]:
        unused.setdefault(key, []).append((leading, body))
    out: list[str] = []
    for key, leading, body in new_parts[0]:
        if unused.get(key):
            old_leading, old_body = unused[key].pop(0)
            blanks = [line for line in leading if not line.strip()]
            comments = [line for line in old_leading if line.strip()]
            comments += [line for line in leading if line.strip() and line not in comments]
            out += [*blanks, *comments, old_body]
        else:
            out += [*leading, body]
    trailing = new_parts[1]
    if not any(line.strip() for line in trailing) and any(line.strip() for line in old_parts[1]):
        trailing = old_parts[1]
    return "".join(out) + "".join(trailing)


_Segments = tuple[list[tuple[str, list[str], str]], list[str]]


def _segments(text: str) -> _Segments | None:
    """(each top-level statement's (code, the lines above it since the last, its own lines), the
    lines after the last); None when `text` does not parse or puts two statements on one line."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    lines = text.splitlines(keepends=True)
    parts, end = [], 0
    for node in tree.body:
        decorators = getattr(node, "decorator_list", [])
        start = min([node.lineno, *(d.lineno for d in decorators)])
        if start <= end or node.end_lineno is None:
            return None
        parts.append((ast.dump(node), lines[end : start - 1], "".join(lines[start - 1 : node.end_lineno])))
        end = node.end_lineno
    return parts, lines[end:]


def restore_file_end(old: str, new: str) -> str:
    """`new` ending as `old` does: the blank lines after a file's last line are no one's request
    (a coder's block for one file of several ends with the blank line before the next one)."""
    return new.rstrip("\n") + old[len(old.rstrip("\n")) :] if new.strip() else new


def restore_module_docstring(old: str, new: str, facts: RequestFacts = NO_REQUEST) -> str:
    """`new`, opened by `old`'s docstring (and any comments above it) when it has none of its own."""
    if facts.about_docstrings:
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


def restore_blank_lines(old: str, new: str, facts: RequestFacts = NO_REQUEST) -> str:
    """`new`, with every run of blank lines of `old` that it shortens or deletes put back.

    The lines that are not blank are aligned (unchanged, or changed line for line); the blank
    lines between two aligned neighbours are the longer of the two files' runs. Aligning blank
    lines themselves would let difflib pair one gap's blank line with another gap's."""
    if facts.about_layout:
        return new
    old_lines, old_gaps = _split_blanks(old.splitlines(keepends=True))
    new_lines, new_gaps = _split_blanks(new.splitlines(keepends=True))
    end = "\0end of file"  # aligns the last lines' trailing gap like any other
    pairs: set[tuple[int, int]] = set()
    matcher = difflib.SequenceMatcher(None, [*old_lines, end], [*new_lines, end], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            pairs.update(zip(range(i1, i2), range(j1, j2), strict=True))
    gaps = list(new_gaps)
    if new and not new.endswith("\n"):
        pairs.discard((len(old_lines), len(new_lines)))  # no blank line can follow an unended line
    for i, j in pairs:
        neighbours = (i, j) == (0, 0) or (i - 1, j - 1) in pairs
        if neighbours and len(old_gaps[i]) > len(new_gaps[j]):
            gaps[j] = old_gaps[i]
    out = list(gaps[0])
    for line, gap in zip(new_lines, gaps[1:], strict=True):
        out.extend([line, *gap])
    return "".join(out)


def _split_blanks(lines: list[str]) -> tuple[list[str], list[list[str]]]:
    """The non-blank lines, and the runs of blank lines before, between and after them."""
    text: list[str] = []
    gaps: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            text.append(line)
            gaps.append([])
        else:
            gaps[-1].append(line)
    return text, gaps


@rule(
    "untouched_text",
    Stage.WRITE,
    reason="a whole-file answer keeps the file's blank lines, docstring and the comments "
    "of the code it did not change",
    evidence="tests/test_untouched_text.py",
)
def untouched_text(draft: WriteDraft) -> None:
    """A whole-file answer keeps the file's blank lines and docstring (agents/rules/write/untouched_text)."""
    if not draft.python or draft.merged is not None:
        return
    current = draft.read_current()
    if current is not None:
        draft.content = keep_untouched(current, draft.content, draft.facts)
