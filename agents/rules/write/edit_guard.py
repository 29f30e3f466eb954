"""A write that would drop code the request did not ask to drop is refused, naming what it drops.

Small coders rewrite a whole file from memory and leave out the functions they were not asked to
touch. The check compares the definitions (top-level functions, classes and assigned names, and
methods as `Class.method`) before and after; a name the request mentions next to a word such as
"remove" or "rename" may go. A data file the request only reads is the user's, whole: the coder
may not rewrite it unless the request asks for a change in the sentence that names it.
"""

from __future__ import annotations

import ast
import re

from agents.source.definition_merge import is_main_guard

_TOP_LEVEL = re.compile(r"^(?:async\s+def|def|class)\s+([A-Za-z_]\w*)", re.M)
_DROPS = re.compile(
    r"\b(remove|removes|delete|deletes|drop|drops|rename|renames|replace|replaces|merge)\b", re.I
)

_KINDS = r"(?:function|method|class|variable|constant|attribute|field|module)"
# "rename conv to convert", "Rename the function by_author in catalog.py to books_by"; not "Rename
# the method to total()", which names no old name.
_RENAME = re.compile(
    rf"\brenam\w*\s+(?:the\s+)?(?:{_KINDS}\s+)?(?!(?:{_KINDS}|it|this|that|them)\b)`?([A-Za-z_][\w.]*)`?(?:\(\))?`?"
    r"(?:\s+(?:in|from|of)\s+`?[\w./]+`?)?\s+(?:to|into|as)\s+`?([A-Za-z_]\w*)",
    re.I,
)


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


def lost_definitions(old: str, new: str, request: str = "") -> list[str]:
    """Definitions in `old` that `new` no longer has and the request does not ask to remove."""
    before, after = definitions(old), definitions(new)
    if before is None or after is None:
        # One side does not parse: compare what a line scan finds at the top level.
        before, after = _TOP_LEVEL.findall(old), _TOP_LEVEL.findall(new)
    kept = set(after)
    allowed = removable_names(request)
    renamed = renames(request)

    def lost(name: str) -> bool:
        if name in kept:
            return False
        parts = name.split(".")
        if any(part in renamed for part in parts):
            # Renamed, it must stand where it stood: asked to rename a function, the 1.5B moved it
            # into a class as a method, and every caller of the function broke.
            return ".".join(renamed.get(part, part) for part in parts) not in kept
        return parts[-1] not in allowed

    gone = [name for name in dict.fromkeys(before) if lost(name)]
    dropped_main = "__name__" in old and _has_main_guard(old) and _has_main_guard(new) is False
    if dropped_main and not _MAIN_DROPPED.search(request):  # (the text test spares most parses)
        # A script's entry point is code the user runs: the 0.5B, asked to change one message in
        # report.py, rewrote the file without its `if __name__ == "__main__":` block.
        gone.append(MAIN_GUARD)
    return gone


MAIN_GUARD = "__main__"  # the name lost_definitions gives a dropped `if __name__ == "__main__":` block
_MAIN_DROPPED = re.compile(
    r"\b(?:remove|delete|drop)\w*\b[^.;]*(?:__main__|__name__|\bmain\s+(?:block|guard|section)|\bentry\s+point)",
    re.I,
)


def _has_main_guard(source: str) -> bool | None:
    """Whether the module has an `if __name__ == ...` block; None when it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    return any(is_main_guard(node) for node in tree.body)


# "Order.calc_total is a clumsy name. Rename the method to total()": the old name is said before.
_RENAME_KIND = re.compile(
    rf"\brenam\w*\s+(?:the|this|that|it)\s+(?:{_KINDS}\s+)?(?:to|into|as)\s+`?([A-Za-z_]\w*)", re.I
)
_NAMED_BEFORE = re.compile(
    r"`([A-Za-z_][\w.]*)`|\b[A-Za-z_]\w*\.(?!(?:py|json|csv|txt|md|toml|ya?ml|cfg|ini)\b)([A-Za-z_]\w*)\b"
    r"|\b([A-Za-z_]\w*)\(\)"
)


def renames(request: str) -> dict[str, str]:
    """{old: new} for each "rename old to new" in the request, and for "rename the method to new"
    the code name said last before it (`name`, Class.name or name())."""
    found = {old.split(".")[-1]: new for old, new in _RENAME.findall(request)}
    for match in _RENAME_KIND.finditer(request):
        new = match.group(1)
        said = [next(g for g in m.groups() if g) for m in _NAMED_BEFORE.finditer(request[: match.start()])]
        olds = [name.split(".")[-1] for name in said if name.split(".")[-1] != new]
        if olds and new not in found.values():
            found[olds[-1]] = new
    return found


def removable_names(request: str) -> set[str]:
    if not _DROPS.search(request):
        return set()
    return set(re.findall(r"[A-Za-z_]\w*", request))


# Words that ask for a file's content to change, in the clause naming it ("Add a 'timeout' key to
# config.json"); "The settings are in config.json" and "a function that reads scores.csv" only say
# what to read.
_CHANGES = re.compile(
    r"\b(add|adds|append|appends|change|changes|update|updates|edit|edits|set|sets|remove|removes|"
    r"delete|deletes|drop|drops|rename|renames|fix|fixes|replace|replaces|modify|modifies|write|"
    r"writes|put|insert|inserts|save|saves|sort|correct|extend|fill|clean|reformat|format)\b",
    re.I,
)
_CLAUSES = re.compile(r"(?<=[.;!?])\s+|\s+(?:that|which|and|then)\s+", re.I)
# "(don't edit config.json, other machines have different ones)" asks to leave it.
_NEGATED = re.compile(
    r"(?:\bdon[’']?t|\bdo\s+not|\bnever|\bnot|\bwithout|\bno\s+need\s+to)\s+(?:\w+\s+)?$", re.I
)


def _asks_a_change(clause: str) -> bool:
    return any(not _NEGATED.search(clause[: m.start()]) for m in _CHANGES.finditer(clause))


def asks_to_change(request: str, path: str) -> bool:
    """Whether a clause of the request that names the file (its path, its name, or its stem as a
    word, not another file's: "the README") also asks for a change."""
    name = path.rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0]
    names = re.compile(rf"{re.escape(path)}|{re.escape(name)}|\b{re.escape(stem)}\b(?!\.\w)", re.I)
    return any(names.search(clause) and _asks_a_change(clause) for clause in _CLAUSES.split(request))
