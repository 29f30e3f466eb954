"""Rule ints_not_made: a function said to return "an int" that never makes one."""

from tests.rule_helpers import scan_with

CODE = "import json\n\n\ndef get_port():\n    return json.load(open('config.json'))['port']\n"
REQUEST = "Write get_port() in settings.py that returns the port from config.json as an int."


def test_a_function_said_to_return_an_int_that_never_makes_one_is_told() -> None:
    problems = scan_with(REQUEST, {"settings.py": CODE}, without=frozenset({"named_files_written"}))
    assert len(problems) == 1 and "get_port()" in problems[0] and "int()" in problems[0]


def test_switched_off_nothing_is_told() -> None:
    assert (
        scan_with(REQUEST, {"settings.py": CODE}, without=frozenset({"ints_not_made", "named_files_written"}))
        == []
    )
