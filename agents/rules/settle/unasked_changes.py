"""Functions a run rewrote though the request did not ask: put back as they were.

Asked in the IDE to "make count_words ignore words that are only punctuation", the 1.5B also
rewrote longest_word. The user's other code must not change behind their back, so at the end of a
run each such function is tried as it was before the run (agents/run/settling keeps it where
every check still passes, or, after a run that was not approved, where no passing check then fails).

Only where the request names a function of the file (else any change may be what it asks), only
functions it does not name, that nothing it names, the module's own statements or the run's other
files use (a helper the change needed, a caller of a new parameter). A parameter added unasked is
put back too: asked for `sep` in join_names and `marker` in bullet_list, the 1.5B also gave the
file's header() a `marker` that it printed before every title.

Methods likewise, named `Class.method`, where the request names a method of that class: on a held-out
follow-up the 1.5B added the asked method and changed what an existing one returns. Dunder methods
stay as the run left them (an attribute the new method needs is set in `__init__`).
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Collection

from agents.request import RequestFacts
from agents.source.definition_merge import definition_text, merge_definitions, top_level_functions
from agents.source.used_names import used_names


def unasked_changes(
    original: str, current: str, facts: RequestFacts, used_elsewhere: Collection[str] = ()
) -> list[str]:
    """The top-level functions of `current` that the run changed from `original` unasked.
    `used_elsewhere`: the names the run's other files use."""
    try:
        old_tree, new_tree = ast.parse(original), ast.parse(current)
    except (SyntaxError, ValueError):
        return []
    before, after = top_level_functions(old_tree), top_level_functions(new_tree)
    words = facts.words
    named = [node for node in new_tree.body if getattr(node, "name", None) in words]
    if not named:
        return []
    statements = [
        node
        for node in new_tree.body
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    ]
    used = used_names(named + statements) | set(used_elsewhere)
    return [
        name
        for name, node in after.items()
        if name in before
        and name not in words | used
        and definition_text(current, node) != definition_text(original, before[name])
    ]


def _methods(node: ast.ClassDef) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    return {n.name: n for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def _classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    return {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}


def unasked_method_changes(
    original: str, current: str, facts: RequestFacts, used_elsewhere: Collection[str] = ()
) -> list[str]:
    """`Class.method` for each method of `current` the run changed from `original` unasked, in the
    classes where the request names a method."""
    try:
        old_tree, new_tree = ast.parse(original), ast.parse(current)
    except (SyntaxError, ValueError):
        return []
    words, before = facts.words, _classes(old_tree)
    changed = []
    for cls, node in _classes(new_tree).items():
        if cls not in before:
            continue
        old, new = _methods(before[cls]), _methods(node)
        named = [m for name, m in new.items() if name in words]
        if not named:
            continue
        used = used_names(named) | set(used_elsewhere) | words
        changed += [
            f"{cls}.{name}"
            for name, method in new.items()
            if name in old
            and name not in used
            and not (name.startswith("__") and name.endswith("__"))
            and definition_text(current, method) != definition_text(original, old[name])
        ]
    return changed


def put_back(current: str, original: str, name: str) -> str | None:
    """`current` with function (or `Class.method`) `name` as `original` has it, everything else
    byte for byte; None when that cannot be done cleanly."""
    cls, _, method = name.rpartition(".")
    try:
        tree = ast.parse(original)
    except (SyntaxError, ValueError):
        return None
    if cls:
        holder = _classes(tree).get(cls)
        old = _methods(holder).get(method) if holder else None
        answer = (
            f"class {cls}:\n" + textwrap.indent(textwrap.dedent(definition_text(original, old)), "    ")
            if old
            else ""
        )
    else:
        old = top_level_functions(tree).get(name)
        answer = definition_text(original, old) if old else ""
    if not answer:
        return None
    merged = merge_definitions(current, answer)
    if merged is None or merged.replaced != [cls or name] or merged.removed or merged.added:
        return None
    return merged.text
