"""Rule unused_parameters: a parameter the request names that its function never reads."""

from tests.rule_helpers import scan_with

CODE = "def greet(name, greeting='Hello'):\n    return 'Hello ' + name\n"
REQUEST = "Add a parameter greeting to greet(name, greeting) in greet.py."


def test_a_named_parameter_never_read_is_told() -> None:
    problems = scan_with(REQUEST, {"greet.py": CODE})
    assert len(problems) == 1 and "never used" in problems[0] and "greeting" in problems[0]


def test_switched_off_nothing_is_told() -> None:
    assert scan_with(REQUEST, {"greet.py": CODE}, without=frozenset({"unused_parameters"})) == []
