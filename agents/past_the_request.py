"""Where a finished run's change reaches past what the request asked: the IDE then holds it for
review, whatever the number of files (Settings → Review before write, "auto").

Issue 58: four of sixteen requests left a project worse through one-file runs that skipped
review: "make it faster" deleted the user's hand-written comment and nothing else; "Add a test
test_count to tests/test_ledger.py" rewrote models.py's docstring and added methods instead.
Each reason here is one of those shapes: an existing file the request neither names nor implies,
lines changed outside the definitions it names, comments or docstrings it does not mention lost.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections import Counter
from difflib import SequenceMatcher

from agents.request import RequestFacts
from agents.source.definition_merge import line_span

Change = tuple[str, str | None, str | None]  # (path, text before the run, text after; None: absent)


def reaches_past(facts: RequestFacts, changes: list[Change]) -> list[str]:
    """Each way the change goes beyond the request, in words ([] when it stays within it). Only
    files that were there before count: a new file is what a request makes."""
    reasons: list[str] = []
    for rel, before, after in changes:
        if before is None or after is None or not rel.endswith(".py"):
            continue
        try:
            old_tree = ast.parse(before)
        except (SyntaxError, ValueError):
            continue
        defined = _definitions(old_tree)
        named = {name: span for name, span in defined.items() if name.split(".")[-1] in facts.words}
        if facts.files and not facts.names_file(rel) and not named:
            reasons.append(f"it changed `{rel}`, which the request neither names nor refers to")
            continue
        spans = list(named.values())
        if named and _changed_outside(before, after, spans):
            names = ", ".join(sorted({n.split(".")[-1] for n in named}))
            reasons.append(f"it changed lines of `{rel}` outside {names}, which the request is about")
        lost = _lost_notes(before, after, spans, facts)
        if lost:
            reasons.append(f"it removed or changed {lost} in `{rel}` that the request does not mention")
    return reasons


def _definitions(tree: ast.Module) -> dict[str, tuple[int, int]]:
    """Each top-level function and class, and each method (`Class.name`), with its line span."""
    spans: dict[str, tuple[int, int]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            spans[node.name] = _span(node)
        if isinstance(node, ast.ClassDef):
            for inner in node.body:
                if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                    spans[f"{node.name}.{inner.name}"] = _span(inner)
    return spans


def _span(node: ast.stmt) -> tuple[int, int]:
    """1-based first and last line, decorators included."""
    start, end = line_span(node)
    return start + 1, end


def _inside(line: int, spans: list[tuple[int, int]]) -> bool:
    return any(start <= line <= end for start, end in spans)


def _changed_outside(before: str, after: str, spans: list[tuple[int, int]]) -> bool:
    """Whether a line of `before` outside `spans` was deleted or replaced (imports and blank lines
    aside: a change needs its imports)."""
    old, new = before.splitlines(), after.splitlines()
    for tag, i1, i2, _j1, _j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag not in ("delete", "replace"):
            continue
        for number in range(i1 + 1, i2 + 1):
            text = old[number - 1].strip()
            if text and not text.startswith(("import ", "from ")) and not _inside(number, spans):
                return True
    return False


def _lost_notes(before: str, after: str, spans: list[tuple[int, int]], facts: RequestFacts) -> str:
    """'comments' and/or 'docstrings' of `before`, outside `spans`, that `after` no longer has."""
    kinds = []
    if not facts.about_comments and _lost(_comments(before), _comments(after), spans):
        kinds.append("comments")
    if not facts.about_docstrings and _lost(_docstrings(before), _docstrings(after), spans):
        kinds.append("docstrings")
    return " and ".join(kinds)


def _lost(old: list[tuple[int, str]], new: list[tuple[int, str]], spans: list[tuple[int, int]]) -> bool:
    kept = Counter(text for _line, text in new)
    wanted = Counter(text for line, text in old if not _inside(line, spans))
    return any(kept[text] < count for text, count in wanted.items())


def _comments(text: str) -> list[tuple[int, str]]:
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return []
    return [(t.start[0], t.string.strip()) for t in tokens if t.type == tokenize.COMMENT]


def _docstrings(text: str) -> list[tuple[int, str]]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc is not None and node.body:
                found.append((node.body[0].lineno, " ".join(doc.split())))
    return found
