"""Rule self_imports: a module written that imports itself is sent back (issue 58: the 0.5B's
report.py, asked for a function main.py calls, imported itself)."""

from tests.rule_helpers import scan_with

REPORT = "def summary(rows):\n    return len(rows)\n"
SELF_IMPORT = REPORT + "\n\nfrom report import summary\n\n\ndef count(rows):\n    return len(rows)\n"


def test_a_module_importing_itself_is_told() -> None:
    problems = scan_with(
        "Add count(rows) to report.py", {"report.py": SELF_IMPORT}, originals={"report.py": REPORT}
    )
    assert [p for p in problems if "imports itself" in p] == [
        "report.py imports itself: import what it needs from the module that defines it, or drop the import."
    ]


def test_one_that_did_so_before_the_run_is_not_the_runs_doing_and_switched_off_nothing_is_told() -> None:
    sources = {"report.py": SELF_IMPORT}
    assert not scan_with("Add a docstring", sources, originals={"report.py": SELF_IMPORT})
    off = scan_with("x", sources, originals={"report.py": REPORT}, without=frozenset({"self_imports"}))
    assert not [p for p in off if "imports itself" in p]
