"""Rule named_files_written: the files the request names must be written."""

from tests.rule_helpers import scan_with


def test_a_named_file_not_written_is_told() -> None:
    problems = scan_with("Write area.py and main.py", {"area.py": "def area(r):\n    return r\n"})
    assert problems == ["The request names main.py, which was not written."]


def test_switched_off_nothing_is_told() -> None:
    sources = {"area.py": "def area(r):\n    return r\n"}
    assert scan_with("Write area.py and main.py", sources, without=frozenset({"named_files_written"})) == []
