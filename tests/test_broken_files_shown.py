"""Rule broken_files_shown: a project file the run broke is shown, and may be written, next round.

Asked in the IDE to "Rename the function by_author in catalog.py to books_by and update every use",
the 0.5B renamed it in catalog.py; project_imports told it report.py still imports by_author, but a
request that names one file let it write only that file, and report.py was never shown to it."""

from pathlib import Path

from tests.crew_script import crew, files
from tests.rename_project import FIXED, OFF, RENAMED, REPORT, REQUEST, TESTS, make


def _rename(tmp_path: Path, without: frozenset[str]):
    make(tmp_path)
    # Round 1 renames the definition only; round 2 answers with both files.
    coder = [files(("catalog.py", RENAMED)), files(("catalog.py", RENAMED), ("report.py", FIXED))]
    # work_files off: the files the rename uses would be writable from round 1 (the named file alone).
    off = OFF | {"work_files"} | without
    summary, _, engine = crew(tmp_path, REQUEST, coder=coder, rounds=2, without=off)
    return summary, engine


def test_the_importer_the_rename_broke_is_shown_and_written(tmp_path: Path) -> None:
    summary, engine = _rename(tmp_path, frozenset())
    assert (tmp_path / "report.py").read_text() == FIXED
    assert summary.checks_passed  # not approved: the tests passing as before check no change
    second = [c for c in engine.calls if "report.py" in c.prompt and "by_author(books, author))" in c.prompt]
    assert second, "round 2 was not shown report.py"
    assert (tmp_path / "test_report.py").read_text() == TESTS


def test_switched_off_report_py_is_neither_shown_nor_written(tmp_path: Path) -> None:
    summary, engine = _rename(tmp_path, frozenset({"broken_files_shown"}))
    assert (tmp_path / "report.py").read_text() == REPORT
    assert not summary.checks_passed
