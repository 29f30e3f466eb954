"""Example code appended to a user's module runs only as a script, never on import."""

import subprocess
import sys
from pathlib import Path

from agents.request import RequestFacts
from agents.rules.write.example_usage import guard_example_usage

TODO = '''"""A tiny to-do list."""


class TodoList:
    def __init__(self):
        self.items = []

    def add(self, text):
        self.items.append(text)
'''
USAGE = """
# Example usage
todo = TodoList()
todo.add("Learn Python")
print(todo.items)
"""


def test_usage_appended_to_a_module_goes_under_a_main_guard(tmp_path: Path) -> None:
    new = TODO + "\n    def done(self, index):\n        pass\n" + USAGE
    guarded, moved = guard_example_usage(
        TODO, new, RequestFacts.read("Add a method done(index) to TodoList in todo.py")
    )
    assert moved
    assert guarded.startswith(TODO + "\n    def done(self, index):\n        pass\n\n")
    assert '\nif __name__ == "__main__":\n    # Example usage\n    todo = TodoList()\n' in guarded
    (tmp_path / "todo.py").write_text(guarded)
    imported = subprocess.run(
        [sys.executable, "-c", "import todo"], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert imported.stdout == ""  # importing prints nothing
    run = subprocess.run(
        [sys.executable, "todo.py"], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert "Learn Python" in run.stdout  # running it still shows the example


def test_what_the_user_asked_for_or_already_had_is_left_as_it_is() -> None:
    new = TODO + USAGE
    for request in ("Add an example at the end", "Make todo.py print the items", "Add a demo"):
        assert guard_example_usage(TODO, new, RequestFacts.read(request)) == (new, False)
    script = TODO + "\nprint('ready')\n"  # the user's file already runs code at import
    assert guard_example_usage(script, script + USAGE, RequestFacts.read("Add done()")) == (
        script + USAGE,
        False,
    )
    constants = TODO + "\nLIMIT = 10\n"  # a new constant is not example code
    assert guard_example_usage(TODO, constants, RequestFacts.read("Add a LIMIT")) == (constants, False)
    listed = TODO + '\n__all__ = ["TodoList"]\n'  # the user's own statement at the end stays put
    guarded, moved = guard_example_usage(listed, listed + USAGE, RequestFacts.read("Add done()"))
    assert moved and guarded.startswith(listed + '\nif __name__ == "__main__":\n')
    only_statements = "x = 1\n"
    assert guard_example_usage(only_statements, "x = 1\nprint(x)\n", RequestFacts.read("y")) == (
        "x = 1\nprint(x)\n",
        False,
    )


def test_a_string_spanning_lines_or_broken_code_is_not_touched() -> None:
    spans = TODO + '\nprint("""a\nb""")\n'
    assert guard_example_usage(TODO, spans, RequestFacts.read("Add done()")) == (spans, False)
    broken = TODO + "\nprint(\n"
    assert guard_example_usage(TODO, broken, RequestFacts.read("Add done()")) == (broken, False)
