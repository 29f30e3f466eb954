"""Glob patterns for workspace paths: gitignore-style translation and the search path filter.

Paths are POSIX, relative to the workspace root (``pkg/mod.py``). Rules, as in ``.gitignore``:
``*`` and ``?`` stay within one path segment, ``**`` spans segments (``**/x``, ``a/**/b``,
``a/**``), ``[...]`` is a character class (``[!...]`` negates), a backslash escapes.
"""

from __future__ import annotations

import re
from functools import lru_cache


def translate_glob(pattern: str) -> str:
    """Return a regex (without anchors) equivalent to the glob ``pattern``."""
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            if pattern.startswith("**", i):
                at_segment_start = i == 0 or pattern[i - 1] == "/"
                after = pattern[i + 2 : i + 3]
                if at_segment_start and after == "/":
                    out.append("(?:.*/)?")
                    i += 3
                    continue
                if at_segment_start and after == "":
                    out.append(".*")
                    i += 2
                    continue
                out.append("[^/]*")
                i += 2
                continue
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            j = i + 1
            if j < n and pattern[j] in "!^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j += 1
            if j >= n:  # no closing bracket: a literal "["
                out.append(re.escape(c))
                i += 1
                continue
            body = pattern[i + 1 : j]
            negate = body[:1] in ("!", "^")
            if negate:
                body = body[1:]
            body = body.replace("\\", "\\\\")
            out.append(("[^/" if negate else "[") + body.replace("/", "") + "]")
            i = j + 1
        elif c == "\\" and i + 1 < n:
            out.append(re.escape(pattern[i + 1]))
            i += 2
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)


@lru_cache(maxsize=256)
def _compile_path_glob(pattern: str) -> re.Pattern[str]:
    pat = pattern.strip().replace("\\", "/")
    while pat.startswith("./"):
        pat = pat[2:]
    if pat.startswith("/"):
        pat = pat.lstrip("/")
    elif "/" not in pat.rstrip("/"):
        # No slash: match the name at any depth, like ``*.py`` or ``test_*``.
        pat = "**/" + pat
    if pat.endswith("/"):
        pat += "**"
    return re.compile(translate_glob(pat) + r"\Z", re.DOTALL)


def path_matches(pattern: str, path: str) -> bool:
    """Whether workspace-relative ``path`` matches the search filter ``pattern``.

    ``*.py`` matches Python files anywhere; ``tools/**`` or ``tools/`` everything under
    ``tools``; ``tools/*.py`` only files directly in ``tools``; a leading ``/`` anchors.
    """
    return _compile_path_glob(pattern).match(path) is not None


def glob_to_sql_like(pattern: str) -> str:
    """A SQL ``LIKE`` pattern that matches at least every path :func:`path_matches` accepts.

    Used as a cheap pre-filter inside the database; the exact glob is applied afterwards.
    Wildcards and characters that are special to ``LIKE`` become ``%`` / ``_``.
    """
    pat = pattern.strip().replace("\\", "/")
    while pat.startswith("./"):
        pat = pat[2:]
    anchored = pat.startswith("/") or "/" in pat.rstrip("/")
    pat = pat.lstrip("/")
    if pat.endswith("/"):
        pat += "*"
    out: list[str] = []
    i = 0
    while i < len(pat):
        c = pat[i]
        if c == "*":
            out.append("%")
            if pat.startswith("**/", i):  # zero or more folders: the slash is optional too
                i += 2
        elif c == "?" or c in "%_'":
            out.append("_")
        elif c == "[":
            j = pat.find("]", i + 2)
            if j == -1:
                out.append("_")
            else:
                out.append("_")
                i = j
        else:
            out.append(c)
        i += 1
    like = re.sub("%+", "%", "".join(out))
    if not anchored:
        like = "%" + like if not like.startswith("%") else like
    return like
