"""Rules worse_never_kept, files_parse and self_imports: a round that leaves a problem the project
did not have ranks below the project as it was, whatever the project's tests say, and the end
message says what is on disk and what was broken (issue 58)."""

from pathlib import Path

from tests.crew_script import crew, files

REPORT = '"""Sums of expense rows."""\n\n\ndef summary(rows):\n    return sum(float(r[1]) for r in rows)\n'
MAIN = (
    "import csv, sys\n\nfrom report import summary\n\n\ndef main():\n"
    "    rows = list(csv.reader(sys.stdin))\n    print(summary(rows))\n\n\n"
    'if __name__ == "__main__":\n    main()\n'
)
TESTS = "from report import summary\n\n\ndef test_summary():\n    assert summary([['a', '2']]) == 2.0\n"
# The 0.5B's last round: report.py imports itself (after summary, so pytest still imports it) and
# main.py has lost `import csv, sys`.
SELF_IMPORT = REPORT + "\n\nfrom report import summary\n\n\ndef count(rows):\n    return len(rows)\n"
NO_IMPORTS = MAIN.replace("import csv, sys\n\n", "").replace("print(summary(rows))", "print(count(rows))")
NO_IMPORTS = "from report import count, summary\n" + NO_IMPORTS.replace("from report import summary\n", "")
REQUEST = "Add a function count(rows) to report.py and call it from main.py."


def _project(root: Path) -> None:
    (root / "report.py").write_text(REPORT)
    (root / "main.py").write_text(MAIN)
    (root / "tests").mkdir()
    (root / "tests" / "test_report.py").write_text(TESTS)


def test_a_round_that_breaks_what_pytest_never_imports_is_not_kept(tmp_path: Path) -> None:
    _project(tmp_path)
    reply = files(("report.py", SELF_IMPORT), ("main.py", NO_IMPORTS))
    summary, _, _ = crew(tmp_path, REQUEST, coder=[reply], without=frozenset({"plain_retry"}))
    assert (tmp_path / "report.py").read_text() == REPORT
    assert (tmp_path / "main.py").read_text() == MAIN
    assert not summary.checks_passed
    assert "Nothing was changed" in summary.message and "main.py" in summary.message


def test_switched_off_the_broken_round_stays(tmp_path: Path) -> None:
    _project(tmp_path)
    reply = files(("report.py", SELF_IMPORT), ("main.py", NO_IMPORTS))
    without = frozenset({"plain_retry", "worse_never_kept"})
    crew(tmp_path, REQUEST, coder=[reply], without=without)
    assert (tmp_path / "main.py").read_text() == NO_IMPORTS


MATHOPS = "def calc(a, b):\n    return a * b\n"
INVOICE = "from mathops import calc\n\n\ndef total(q, p):\n    return calc(q, p)\n"
CLI = "from mathops import calc\n\nprint(calc(2, 3))\n"


def test_a_rename_left_half_done_is_not_kept(tmp_path: Path) -> None:
    # The 1.5B: two modules import the new name, the defining module still has the old one.
    (tmp_path / "mathops.py").write_text(MATHOPS)
    (tmp_path / "invoice.py").write_text(INVOICE)
    (tmp_path / "cli.py").write_text(CLI)
    # The project's tests import mathops alone: they pass whatever became of invoice.py and cli.py.
    test = "from mathops import calc\n\n\ndef test_calc():\n    assert calc(2, 3) == 6\n"
    (tmp_path / "test_mathops.py").write_text(test)
    renamed = [
        (f, text.replace("calc", "multiply")) for f, text in (("invoice.py", INVOICE), ("cli.py", CLI))
    ]
    request = "Rename calc to multiply in mathops.py, invoice.py and cli.py."
    without = frozenset({"plain_retry", "ask_rename_in_tests"})  # (that rule would ask first)
    summary, _, _ = crew(tmp_path, request, coder=[files(*renamed)], without=without)
    after = [(tmp_path / f).read_text() for f in ("mathops.py", "invoice.py", "cli.py")]
    assert after == [MATHOPS, INVOICE, CLI]
    assert "Nothing was changed" in summary.message and "does not define" in summary.message


def test_a_round_that_pastes_the_tests_into_a_module_is_not_kept(tmp_path: Path) -> None:
    # The 0.5B in the IDE, asked for two decimals: its kept round had the test file's test pasted
    # into the module, and the project's tests still passed.
    _project(tmp_path)
    pasted = REPORT.replace("return sum(", "return round(sum(").replace("in rows)", "in rows), 2)")
    pasted += "\n\n" + TESTS.split("\n\n\n", 1)[1]
    reply = files(("report.py", pasted))
    request = "Make summary in report.py round to two decimals."
    summary, _, _ = crew(tmp_path, request, coder=[reply], without=frozenset({"plain_retry"}))
    assert (tmp_path / "report.py").read_text() == REPORT
    assert "Nothing was changed" in summary.message and "copied from the tests" in summary.message
