"""A write that would drop code the request did not ask to drop is refused, naming what it drops.

Small coders rewrite a whole file from memory and leave out the functions they were not asked to
touch. The check compares the definitions (top-level functions, classes and assigned names, and
methods as `Class.method`) before and after; a name the request mentions next to a word such as
"remove" or "rename" may go (RequestFacts.removable and .renamed, read in agents/request.py).
"""

from __future__ import annotations

import ast
import re

from agents.request import NO_REQUEST, RequestFacts
from agents.source.definition_merge import is_main_guard

_TOP_LEVEL = re.compile(r"^(?:async\s+def|def|class)\s+([A-Za-z_]\w*)", re.M)


def definitions(source: str) -> list[str] | None:
    """Names defined in the source, or None when it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            # Module-level data (ITEMS = []): a rewrite that drops it leaves every function that
            # uses it failing with NameError (seen on the 0.5B in the IDE).
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names += [t.id for t in targets if isinstance(t, ast.Name) and not t.id.startswith("__")]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.append(node.name)
        elif isinstance(node, ast.ClassDef):
            names.append(node.name)
            names += [
                f"{node.name}.{item.name}"
                for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            ]
    return names


def lost_definitions(old: str, new: str, facts: RequestFacts = NO_REQUEST) -> list[str]:
    """Definitions in `old` that `new` no longer has and the request does not ask to remove."""
    before, after = definitions(old), definitions(new)
    if before is None or after is None:
        # One side does not parse: compare what a line scan finds at the top level.
        before, after = _TOP_LEVEL.findall(old), _TOP_LEVEL.findall(new)
    kept = set(after)
    allowed, renamed = facts.removable, facts.renamed

    def lost(name: str) -> bool:
        if name in kept:
            return False
        parts = name.split(".")
        if any(part in renamed for part in parts):
            # Renamed, it must stand where it stood: asked to rename a function, the 1.5B moved it
            # into a class as a method, and every caller of the function broke.
            return ".".join(renamed.get(part, part) for part in parts) not in kept
        if any(_renamed_within(name, old, new) in kept for old, new in renamed.items()):
            return False  # test_calc became test_multiply with calc
        return parts[-1] not in allowed

    gone = [name for name in dict.fromkeys(before) if lost(name)]
    dropped_main = "__name__" in old and _has_main_guard(old) and _has_main_guard(new) is False
    if dropped_main and not facts.drops_main:
        # A script's entry point is code the user runs: the 0.5B, asked to change one message in
        # report.py, rewrote the file without its `if __name__ == "__main__":` block.
        gone.append(MAIN_GUARD)
    return gone


def _renamed_within(name: str, old: str, new: str) -> str:
    """`name` with `old` replaced where it stands as a part between underscores (`test_calc`)."""
    return "_".join(new if part == old else part for part in name.split("_"))


MAIN_GUARD = "__main__"  # the name lost_definitions gives a dropped `if __name__ == "__main__":` block


def _has_main_guard(source: str) -> bool | None:
    """Whether the module has an `if __name__ == ...` block; None when it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    return any(is_main_guard(node) for node in tree.body)
