"""The crew's prompt texts and the parsing of what the agents reply."""

import re

from agents.llm.roles import checks_task, coder_task, parse_plan
from agents.request import asks_for_tests


def test_the_prompts_carry_no_made_up_task_for_a_small_model_to_copy() -> None:
    # greet.py and greet('Ann') from an earlier worked example ended up in users' files.
    prompts = coder_task("Fix mean() in mathx.py", None, "") + checks_task("Fix mean()", "def mean(xs)")
    assert not re.search(r"\b(greet|Ann)\b", prompts)


def test_the_coder_sees_the_file_before_the_request_and_the_instruction_last() -> None:
    task = coder_task(
        "Fix mean() in mathx.py", None, "- mean divides by the wrong count", "mathx.py\n```python\nx\n```"
    )
    assert task.index("mathx.py\n```python") < task.index("Request:") < task.index("divides by")
    assert task.rstrip().endswith("Nothing after the last block.")


def test_a_follow_up_names_the_previous_request_before_this_one() -> None:
    task = coder_task("Now ignore case.", None, "", previous="Previous request in this project: Fix remove()")
    assert task.index("Previous request") < task.index("Request: Now ignore case.")


def test_retrieved_code_is_shown_only_when_no_file_is() -> None:
    assert "Relevant code:" in coder_task("Add a test", None, "", context="# a.py:1-2\nx = 1")
    assert "Relevant code:" not in coder_task(
        "Add a test", None, "", "a.py\n```python\nx = 1\n```", context="x"
    )


def test_a_plan_lists_each_step_and_file_once() -> None:
    # As the bundled model planned "Write countdown.py that prints the numbers 5 down to 1."
    raw = (
        '{ "steps": [ "write_countdown.py", "create_countdown.py", "create_countdown.py" ],'
        ' "files": ["countdown.py", "countdown.py", "countdown.py"] }'
    )
    plan = parse_plan(raw)
    assert plan.steps == ["write_countdown.py", "create_countdown.py"]
    assert plan.files == ["countdown.py"]
    assert plan.text().count("countdown.py") == 3


def test_checks_on_a_class_are_asked_for_on_one_object() -> None:
    # `TodoList().add("a") == 1` then `TodoList().pending() == ["a"]`: a fresh object each line.
    task = checks_task("Write todo.py with a class TodoList", "class TodoList:\n    def add(self, title)")
    assert "todo_list = TodoList(" in task
    assert " = " not in checks_task("Write f.py with f(x)", "def f(x)")


def test_special_methods_are_asked_for_as_python_calls_them() -> None:
    # Asked for "a __len__", the 1.5B asserted `todo_list.pending() == 1`.
    signatures = (
        "class TodoList:\n    def __len__(self)\n    def pending(self)\nclass Box:\n    def __eq__(self, o)"
    )
    task = checks_task("Give TodoList a __len__", signatures)
    assert "__len__ as len(todo_list)" in task and "__eq__ as box == other" in task
    assert "Call " not in checks_task("Write todo.py with TodoList", "class TodoList:\n    def add(self, t)")


def test_a_request_for_tests_is_told_from_one_to_make_tests_pass() -> None:
    assert asks_for_tests("Write pytest tests for stats.py in test_stats.py.")
    assert asks_for_tests("Add a test for the empty list to test_stats.py")
    assert asks_for_tests("Create test_words.py with unit tests for count_words")
    assert not asks_for_tests("The tests in test_clamp.py fail. Fix clamp() in clamp.py so that they pass.")
    assert not asks_for_tests("Write stats.py with mean(values)")
    # In the IDE: the test the request asked for beside the code was refused as an unasked change.
    assert asks_for_tests(
        "Add a function median(marks) to gradebook/grades.py that raises ValueError on an empty list"
        " like average does, and a test for it in tests/test_grades.py."
    )
    assert asks_for_tests("Write slug.py with tests")
    assert not asks_for_tests("Add a --below flag and make sure the tests pass")
    assert not asks_for_tests("Add a flag, and the tests pass as before")
