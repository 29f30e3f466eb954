"""Example code a coder appends to a user's module runs only when the module is run, never on import.

Asked to add a method to a user's todo.py, the 0.5B appended `# Example usage`, `todo = TodoList()`
and `print(todo.pending())` at the module's top level: every `import todo` then printed, and calls
the model got wrong (a function it never defined) broke the import. When the file was a module
whose top level only defines things (no calls of its own) and the request does not ask for a script
or output, such a trailing run of statements goes under `if __name__ == "__main__":`; it still
runs with `python todo.py`.
"""

from __future__ import annotations

import ast

from agents.request import NO_REQUEST, RequestFacts
from agents.rules.rule import Stage, rule
from agents.rules.write.draft import WriteDraft
from agents.source.definition_merge import is_main_guard

MAIN_GUARD = 'if __name__ == "__main__":\n'
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def guard_example_usage(old: str, new: str, facts: RequestFacts = NO_REQUEST) -> tuple[str, bool]:
    """`new`, with the example code it adds at the end of `old`'s module under a main guard, and
    whether it moved any."""
    if facts.output or facts.script:
        return new, False
    try:
        old_tree, new_tree = ast.parse(old), ast.parse(new)
    except SyntaxError:  # not Python: the checks say so
        return new, False
    if _runs_code(old_tree.body) or not any(isinstance(node, DEFINITIONS) for node in old_tree.body):
        return new, False  # a script, or a file that defines nothing: statements are its point
    tail = _trailing_usage(new_tree.body, kept={ast.dump(node) for node in old_tree.body})
    if not tail or not _runs_code(tail) or any(_multiline_string(node) for node in tail):
        return new, False
    lines = new.splitlines(keepends=True)
    start = tail[0].lineno - 1
    while start > 0 and lines[start - 1].startswith("#"):  # its "# Example usage" heading
        start -= 1
    body = [("    " + line if line.strip() else line) for line in lines[start:]]
    if body and not body[-1].endswith("\n"):
        body[-1] += "\n"
    guarded = "".join(lines[:start]) + MAIN_GUARD + "".join(body)
    try:
        ast.parse(guarded)
    except SyntaxError:
        return new, False
    return guarded, True


def _trailing_usage(body: list[ast.stmt], kept: set[str]) -> list[ast.stmt]:
    """The new statements after the module's last definition, import, main guard or statement the
    file already had (`kept`: those the old file had, as ast dumps): only what the answer added moves."""
    tail: list[ast.stmt] = []
    for node in reversed(body):
        if isinstance(node, (*DEFINITIONS, ast.Import, ast.ImportFrom)):
            break
        if is_main_guard(node) or ast.dump(node) in kept:
            break
        tail.insert(0, node)
    return tail


def _runs_code(body: list[ast.stmt]) -> bool:
    """Whether the top level calls something: a call on its own line, or a loop or with block."""
    for node in body:
        if is_main_guard(node):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call | ast.Await):
            return True
        if isinstance(node, ast.For | ast.AsyncFor | ast.While | ast.With | ast.AsyncWith):
            return True
    return False


def _multiline_string(node: ast.stmt) -> bool:
    """Indenting it would change a string that spans lines."""
    return any(
        isinstance(n, ast.Constant) and isinstance(n.value, str) and n.lineno != n.end_lineno
        for n in ast.walk(node)
    )


@rule(
    "example_usage",
    Stage.WRITE,
    reason="example code appended to a module goes under if __name__ == '__main__'",
    evidence="tests/test_example_usage.py",
)
def example_usage(draft: WriteDraft) -> None:
    """Example code appended to an existing module goes under `if __name__ == "__main__":`."""
    if not draft.python or draft.merged is not None or draft.original is None:
        return
    draft.content, guarded = guard_example_usage(draft.original, draft.content, draft.facts)
    if guarded:
        draft.notes.append('example code at its end put under if __name__ == "__main__"')
