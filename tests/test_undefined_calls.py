"""Rule undefined_calls: a function the request writes as a call that no file defines."""

from tests.rule_helpers import scan_with

TODO = "def remove(items, item):\n    items.remove(item)\n"


def test_an_asked_for_function_no_file_defines_is_told() -> None:
    problems = scan_with("Add done(item) to todo.py", {"todo.py": TODO})
    assert problems == ["The request asks for done(), which no file defines."]


def test_switched_off_nothing_is_told() -> None:
    assert (
        scan_with("Add done(item) to todo.py", {"todo.py": TODO}, without=frozenset({"undefined_calls"}))
        == []
    )
