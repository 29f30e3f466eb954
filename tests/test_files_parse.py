"""Rule files_parse: a Python file written must parse (issue 58: asked to fix a database.py the
project did not have, the 0.5B wrote the README's Markdown into a new one, and the project's tests,
which never imported it, passed)."""

from tests.rule_helpers import scan_with

MARKDOWN = "# Expense tracker\n\nTrack your *expenses* by month.\n"


def test_markdown_in_a_python_file_is_told() -> None:
    problems = scan_with("Create database.py", {"database.py": MARKDOWN}, originals={"database.py": None})
    assert [p for p in problems if "not valid Python" in p] == [
        "database.py is not valid Python (line 3: invalid syntax): write it as Python code, or leave it out."
    ]


def test_a_file_that_did_not_parse_before_the_run_is_not_the_runs_doing() -> None:
    broken = "def f(:\n    pass\n"
    assert not scan_with("Fix f in m.py", {"m.py": broken + "# more\n"}, originals={"m.py": broken})


def test_switched_off_nothing_is_told() -> None:
    sources = {"database.py": MARKDOWN}
    off = scan_with("x", sources, originals={"database.py": None}, without=frozenset({"files_parse"}))
    assert not [p for p in off if "not valid Python" in p]
