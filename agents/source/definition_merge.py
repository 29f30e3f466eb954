"""Apply a coder's partial answer to an existing Python file, definition by definition.

Asked to change one function of a five-function file, small coders answer with that one function
(the 0.5B did so in most edit requests). Written as the whole file, that answer would delete the
other four. Here each top-level definition the answer gives replaces the one of the same name where
it stands, new definitions are added after the last one, new imports join the imports, and every
definition the answer does not mention stays byte for byte. A class the answer gives with only some
of its methods is merged the same way, method by method.

A definition the answer leaves out is removed only when the request asks to remove or rename it
(`removable`); a renamed function's new version takes the old one's place.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Set
from dataclasses import dataclass, field

_DEF = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass
class Merge:
    text: str
    replaced: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # in the file, not in the answer, left as they were
    skipped: int = 0  # the answer's loose statements (example calls, prints) not copied in

    def summary(self) -> str:
        parts = [
            f"{label} {', '.join(names)}"
            for label, names in (
                ("changed", self.replaced),
                ("added", self.added),
                ("removed", self.removed),
                ("kept", self.kept),
            )
            if names
        ]
        return "; ".join(parts)


def line_span(node: ast.stmt) -> tuple[int, int]:
    """0-based first line (decorators included) and end line (exclusive) of a statement."""
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return first - 1, node.end_lineno or node.lineno


def _text(lines: list[str], node: ast.stmt) -> str:
    start, end = line_span(node)
    return "".join(lines[start:end])


def definition_text(source: str, node: ast.stmt) -> str:
    """A top-level statement's own text in `source`, decorators included."""
    return _text(_lines(source), node)


def top_level_functions(tree: ast.Module) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def _name(node: ast.stmt) -> str | None:
    if isinstance(node, _DEF):
        return node.name
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return node.target.id
    if is_main_guard(node):
        return "__main__"
    return None


def is_main_guard(node: ast.stmt) -> bool:
    """`if __name__ == "__main__":` (either way round): a script's entry point."""
    return isinstance(node, ast.If) and any(
        isinstance(n, ast.Name) and n.id == "__name__" for n in ast.walk(node.test)
    )


def _lines(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    return lines


def _reindent(text: str, indent: str) -> str:
    return textwrap.indent(textwrap.dedent(text), indent, lambda line: bool(line.strip()))


class _Edits:
    """Line edits on the current file, applied bottom-up so earlier spans keep their numbers."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self._edits: list[tuple[int, int, str]] = []

    def replace(self, start: int, end: int, text: str) -> None:
        self._edits.append((start, end, text))

    def insert(self, at: int, text: str) -> None:
        self._edits.append((at, at, text))

    def apply(self) -> str:
        lines = list(self.lines)
        # Bottom-up; at one line the later edit goes first, so the text reads in the order added.
        order = sorted(enumerate(self._edits), key=lambda e: (e[1][0], e[1][1], e[0]), reverse=True)
        for _, (start, end, text) in order:
            lines[start:end] = _lines(text) if text else []
        return "".join(lines)


def _merge_class(current: str, old: ast.ClassDef, new: ast.ClassDef, new_text: str) -> str | None:
    """The current class with the answer's methods put in; None when the answer's class body holds
    more than methods and a docstring (then it is meant whole)."""
    cur_lines, new_lines = _lines(current), _lines(new_text)
    offset = line_span(old)[0]
    new_offset = line_span(new)[0]
    methods = {n.name: n for n in old.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    body = [n for n in new.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
    if not all(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) for n in body) or not body:
        return None
    indent = " " * old.body[0].col_offset  # the class body's own indentation
    edits = _Edits(cur_lines)
    last = line_span(old.body[-1])[1] - offset
    appended: list[str] = []
    for node in body:
        start, end = line_span(node)
        text = _reindent("".join(new_lines[start - new_offset : end - new_offset]), indent)
        if node.name in methods:
            s, e = line_span(methods[node.name])
            edits.replace(s - offset, e - offset, text)
        else:
            appended.append("\n" + text)
    if appended:
        edits.insert(last, "".join(appended))
    return edits.apply()


def merge_definitions(
    current: str, answer: str, removable: Set[str] = frozenset(), *, keep_statements: bool = False
) -> Merge | None:
    """The current file with the answer's definitions applied, or None when either side does not
    parse or the answer defines nothing (then it is not a partial edit of this file). The answer's
    loose statements (calls, prints) are added at the end only with `keep_statements`."""
    try:
        cur_tree, ans_tree = ast.parse(current), ast.parse(answer)
    except (SyntaxError, ValueError):
        return None
    cur_lines, ans_lines = _lines(current), _lines(answer)
    cur_nodes = {name: node for node in cur_tree.body if (name := _name(node))}
    ans_defs = [n for n in ans_tree.body if isinstance(n, _DEF)]
    if not ans_defs:
        return None
    merge = Merge(text="")
    edits = _Edits(cur_lines)
    imports = {ast.unparse(n) for n in cur_tree.body if isinstance(n, ast.Import | ast.ImportFrom)}
    new_imports: list[str] = []
    new_top: list[str] = []  # new constants, before the first definition
    new_defs: list[tuple[str, str]] = []
    answered = set()
    loose: list[str] = []
    present = {ast.unparse(n) for n in cur_tree.body}
    for node in ans_tree.body:
        name = _name(node)
        if isinstance(node, ast.Import | ast.ImportFrom):
            if ast.unparse(node) not in imports:
                new_imports.append(_text(ans_lines, node))
            continue
        if name is None:
            if node is ans_tree.body[0] and isinstance(node, ast.Expr):
                continue  # the answer's module docstring: the file keeps its own
            if keep_statements and ast.unparse(node) not in present:
                loose.append(_text(ans_lines, node))
            else:
                # An example call or print the model added to show its work, which the request
                # did not ask for (a print of a call that now raises would break every import).
                merge.skipped += 1
            continue
        answered.add(name)
        text = _text(ans_lines, node)
        old = cur_nodes.get(name)
        if old is None:
            if isinstance(node, _DEF) or name == "__main__":
                new_defs.append((name, text))
            else:
                new_top.append(text)
            continue
        start, end = line_span(old)
        if isinstance(old, ast.ClassDef) and isinstance(node, ast.ClassDef):
            merged = _merge_class(_text(cur_lines, old), old, node, text)
            text = merged if merged is not None else text
        if "".join(cur_lines[start:end]) != text:
            edits.replace(start, end, text)
            merge.replaced.append(name)
    _place_the_rest(
        merge, edits, cur_tree, cur_lines, answered, removable, new_defs, loose, new_imports, new_top
    )
    merge.text = edits.apply()
    return merge


def _place_the_rest(
    merge: Merge,
    edits: _Edits,
    cur_tree: ast.Module,
    cur_lines: list[str],
    answered: set[str],
    removable: Set[str],
    new_defs: list[tuple[str, str]],
    loose: list[str],
    new_imports: list[str],
    new_top: list[str],
) -> None:
    """Removes what the request lets go, and inserts the new definitions, statements, imports and
    constants where each belongs."""
    cur_defs = [n for n in cur_tree.body if isinstance(n, _DEF)]
    gone = [n for n in cur_defs if n.name not in answered and n.name in removable]
    for node in gone:
        start, end = line_span(node)
        # A renamed function's new version takes the old one's place.
        if new_defs and new_defs[0][0] != "__main__":
            name, text = new_defs.pop(0)
            merge.added.append(name)
            edits.replace(start, end, text)
        else:
            edits.replace(start, end, "")
        merge.removed.append(node.name)
    merge.kept = [n.name for n in cur_defs if n.name not in answered and n not in gone]
    after_defs = line_span(cur_defs[-1])[1] if cur_defs else len(cur_lines)
    for name, text in new_defs:
        merge.added.append(name)
        at = len(cur_lines) if name == "__main__" else after_defs
        edits.insert(at, "\n\n" + text)
    if loose:
        edits.insert(len(cur_lines), "\n\n" + "".join(loose))
    cur_imports = [n for n in cur_tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    if new_imports:
        at = line_span(cur_imports[-1])[1] if cur_imports else _docstring_end(cur_tree)
        # The first imports of a file go above its code with the two blank lines PEP 8 puts there.
        code_follows = not cur_imports and at < len(cur_lines) and cur_lines[at].strip() != ""
        edits.insert(at, "".join(new_imports) + ("\n\n" if code_follows else ""))
    if new_top:
        at = line_span(cur_defs[0])[0] if cur_defs else len(cur_lines)
        edits.insert(at, "".join(new_top) + "\n\n")


def _docstring_end(tree: ast.Module) -> int:
    first = tree.body[0] if tree.body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        return first.end_lineno or 0
    return 0
