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


def test_a_plural_in_the_requests_prose_asks_for_no_function() -> None:
    # In the IDE: "Also make summary say 'no books' instead of '0 book(s)' ..." was told book(),
    # three rounds running, and the right change was reported as failing its checks.
    ask = "Also make summary say 'no books' instead of '0 book(s)' when the author has none."
    assert scan_with(ask, {"report.py": "def summary(books):\n    return f'{len(books)} book(s)'\n"}) == []
    for code_named in ("Add 'done(item)' to todo.py", "Don't print; add done(item) to todo.py, it's short"):
        told = scan_with(code_named, {"todo.py": TODO})
        assert told == ["The request asks for done(), which no file defines."], code_named
