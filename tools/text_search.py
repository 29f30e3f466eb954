"""Plain text search over the workspace: the `search_code` fallback when there is no index yet."""

from __future__ import annotations

import re

from tools.search_hit import Hit
from tools.workspace_files import WorkspaceError, WorkspaceFiles

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{1,}")


def search_text(files: WorkspaceFiles, query: str, k: int = 5, context: int = 2) -> list[Hit]:
    """Lines scored by how many distinct query words they contain; best k windows, one per line."""
    words = {w.lower() for w in _WORD.findall(query)}
    if not words:
        return []
    hits: list[Hit] = []
    for rel in files.list_files():
        try:
            lines = files.read_text(rel).splitlines()
        except (WorkspaceError, OSError):
            continue  # binary, too big or vanished: nothing to search
        path_bonus = sum(w in rel.lower() for w in words) * 0.5
        for number, line in enumerate(lines, start=1):
            lowered = line.lower()
            score = sum(w in lowered for w in words)
            if score:
                start, end = max(1, number - context), min(len(lines), number + context)
                snippet = "\n".join(lines[start - 1 : end])
                hits.append(Hit(rel, start, end, "", "", float(score) + path_bonus, snippet))
    hits.sort(key=lambda hit: (-hit.score, hit.path, hit.start_line))
    chosen: list[Hit] = []
    for hit in hits:
        if all(
            hit.path != c.path or hit.start_line > c.end_line or hit.end_line < c.start_line for c in chosen
        ):
            chosen.append(hit)
        if len(chosen) == k:
            break
    return chosen
