"""Which failed checks call only code the request does not touch."""

from agents.request import RequestFacts
from agents.rules.settle import outside_checks
from agents.rules.settle.outside_checks import outside_the_request, project_names, touched_names

OLD = (
    "def join_names(names):\n    return ', '.join(names)\n\n\n"
    "def bullet_list(items):\n    return '- ' + items[0]\n"
)
NEW = OLD.replace("(items):", "(items, marker='- '):")
REQUEST = "Give bullet_list a parameter marker."
ON_JOIN = "assert join_names(['a', 'b']) == 'a - b'  ->  AssertionError: got 'a, b', expected 'a - b'"
ON_BULLETS = "assert bullet_list(['x']) == 'x'  ->  AssertionError: got '- x', expected 'x'"


def test_the_request_s_words_and_the_changed_definitions_are_touched() -> None:
    touched = touched_names(RequestFacts.read(REQUEST), {"report.py": NEW}, {"report.py": OLD})
    assert touched is not None and "bullet_list" in touched and "join_names" not in touched
    changed_join = NEW.replace("', '.join", "' - '.join")
    assert "join_names" in (
        touched_names(RequestFacts.read("Fix it."), {"report.py": changed_join}, {"report.py": OLD}) or set()
    )
    assert (
        touched_names(RequestFacts.read(REQUEST), {"report.py": "def broken(:\n"}, {"report.py": OLD}) is None
    )


def test_only_checks_on_untouched_project_code_are_outside() -> None:
    defined = project_names({"report.py": NEW})
    assert defined == {"join_names", "bullet_list"}
    failures = [ON_JOIN, ON_BULLETS, "assert len('ab') == 3  ->  AssertionError: got 2, expected 3"]
    touched = touched_names(RequestFacts.read(REQUEST), {"report.py": NEW}, {"report.py": OLD}) or set()
    assert outside_the_request(failures, touched, defined) == [ON_JOIN]
    assert outside_the_request(failures, touched) == [ON_JOIN, failures[2]]  # any call, before the read
    # A new file: everything in it is the run's.
    all_new = touched_names(RequestFacts.read(REQUEST), {"report.py": NEW}, {"report.py": None}) or set()
    assert outside_the_request([ON_JOIN], all_new, defined) == []


def test_checks_test_the_change_when_an_assert_calls_a_touched_name() -> None:
    touched = touched_names(RequestFacts.read(REQUEST), {"report.py": NEW}, {"report.py": OLD}) or set()
    assert outside_checks.tests_the_change("assert bullet_list(['x']) == '- x'", touched)
    assert not outside_checks.tests_the_change("assert join_names(['a']) == 'a'", touched)
    assert not outside_checks.tests_the_change("", touched)
