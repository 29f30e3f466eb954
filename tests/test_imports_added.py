"""Rule imports_added: a name a written file uses unbound, which exactly one other module of the
project defines, gets its import line (agents/rules/write/missing_imports.py); switched off, the static check
only names it and the coder must fix it."""

from pathlib import Path

from agents.rules.write.missing_imports import add_missing_imports
from tests.crew_script import checks, crew, files

REPORT = 'def report(inv):\n    return "\\n".join(sorted(inv))\n'
MAIN = (
    'from inventory import Inventory\n\nif __name__ == "__main__":\n    print(report(Inventory(apple=1)))\n'
)
INVENTORY = "class Inventory(dict):\n    pass\n"
REVIEW = checks('assert report({}) == ""')


def test_the_import_goes_after_the_files_own_imports() -> None:
    sources = {"report.py": REPORT, "inventory.py": INVENTORY, "main.py": MAIN}
    text, added = add_missing_imports(MAIN, None, "main.py", sources)
    assert added == ["from report import report"]
    assert text.startswith("from inventory import Inventory\nfrom report import report\n\nif __name__")
    compile(text, "main.py", "exec")


def test_a_docstring_stays_first_and_a_first_import_stands_apart() -> None:
    source = '"""Main."""\nprint(report({}))\n'
    text, _ = add_missing_imports(source, None, "main.py", {"report.py": REPORT})
    assert text == '"""Main."""\nfrom report import report\n\nprint(report({}))\n'


def test_nothing_is_added_where_it_is_not_clear() -> None:
    uses = "print(report({}))\n"
    two = {"report.py": REPORT, "old/report2.py": REPORT}
    assert add_missing_imports(uses, None, "main.py", two) == (uses, [])  # two modules define it
    assert add_missing_imports(uses, uses, "main.py", {"report.py": REPORT}) == (uses, [])  # unbound before
    cycle = {"report.py": "from main import helper\n\n" + REPORT}
    assert add_missing_imports(uses, None, "main.py", cycle) == (uses, [])  # report imports main
    from_a_test = {"test_report.py": REPORT}
    assert add_missing_imports(uses, None, "main.py", from_a_test) == (uses, [])
    assert add_missing_imports("print(nowhere())\n", None, "main.py", {"report.py": REPORT})[1] == []


def _project(tmp_path: Path) -> Path:
    (tmp_path / "report.py").write_text(REPORT)
    (tmp_path / "inventory.py").write_text(INVENTORY)
    return tmp_path


def test_a_main_that_forgot_its_import_runs_in_round_one(tmp_path: Path) -> None:
    request = "Write main.py that prints the report of an inventory holding an apple."
    summary, _, _ = crew(
        _project(tmp_path), request, coder=[files(("main.py", MAIN))] * 3, reviewer=[REVIEW] * 3, rounds=2
    )
    assert summary.approved and summary.rounds_used == 1, summary.checks
    assert "from report import report" in (tmp_path / "main.py").read_text()


def test_switched_off_the_coder_is_told_and_the_file_stays_as_written(tmp_path: Path) -> None:
    request = "Write main.py that prints the report of an inventory holding an apple."
    summary, _, _ = crew(
        _project(tmp_path), request, coder=[files(("main.py", MAIN))] * 3, reviewer=[REVIEW] * 3,
        rounds=2, without=frozenset({"imports_added", "worse_never_kept"}),  # kept on, no round stays
    )  # fmt: skip
    assert not summary.approved
    assert "from report import report" not in (tmp_path / "main.py").read_text()
