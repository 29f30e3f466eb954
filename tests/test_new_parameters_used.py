"""Rule new_parameters_used: a parameter a function gains in the run must be used in its code (the
0.5B added sep and marker to report.py's functions, used neither, and was approved)."""

from tests.rule_helpers import scan_with

REPORT = (
    'def join_names(names):\n    return ", ".join(names)\n\n\n'
    "class Page:\n    def line(self, text):\n        return text\n"
)
IGNORED = (
    'def join_names(names, sep=", "):\n    return ", ".join(names)\n\n\n'
    "class Page:\n    def line(self, text, marker='- '):\n        return text\n"
)
USED = (
    'def join_names(names, sep=", "):\n    return sep.join(names)\n\n\n'
    "class Page:\n    def line(self, text, marker='- '):\n        return marker + text\n"
)
ASK = "In report.py, give join_names a parameter sep and Page.line a parameter marker."


def test_a_new_parameter_the_code_never_reads_is_told_for_functions_and_methods() -> None:
    problems = scan_with(ASK, {"report.py": IGNORED}, originals={"report.py": REPORT})
    told = [p for p in problems if "never uses it" in p]
    assert len(told) == 2
    assert "join_names() now takes sep" in told[0] and "Page.line() now takes marker" in told[1]


def test_used_parameters_old_ones_and_new_files_are_not_told() -> None:
    assert not [
        p for p in scan_with(ASK, {"report.py": USED}, originals={"report.py": REPORT}) if "never" in p
    ]
    # unused before the run: not the run's doing
    assert not [
        p for p in scan_with(ASK, {"report.py": IGNORED}, originals={"report.py": IGNORED}) if "never" in p
    ]
    # a file the run made: nothing to compare with
    assert not [
        p for p in scan_with(ASK, {"report.py": IGNORED}, originals={"report.py": None}) if "never" in p
    ]


def test_switched_off_nothing_is_told() -> None:
    off = scan_with(
        ASK,
        {"report.py": IGNORED},
        originals={"report.py": REPORT},
        without=frozenset({"new_parameters_used"}),
    )
    assert not [p for p in off if "never uses it" in p]
