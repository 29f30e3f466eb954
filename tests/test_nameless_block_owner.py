"""Rule nameless_block_owner: a code block without a file name, when several files are expected,
goes to the one shown file that defines what it defines.

In the IDE, asked to rename by_author in catalog.py "and update every use", the 0.5B's second try
was report.py's summary() with the new name, in a block with no path: with two files expected it
went nowhere ("No file was written")."""

from pathlib import Path

from agents.rules.parse.file_blocks import file_blocks, owner_of
from tests.crew_script import FENCE, crew, files
from tests.rename_project import CATALOG, FIXED, OFF, RENAMED, REPORT, REQUEST, make


def test_a_nameless_block_goes_to_the_one_file_defining_its_functions() -> None:
    shown = {"catalog.py": CATALOG, "report.py": REPORT}
    assert owner_of(FIXED, shown) == "report.py"
    assert owner_of("def other():\n    return 1\n", shown) is None  # defines nothing either has
    assert owner_of("def count():\n    pass\n", {"a.py": REPORT, "b.py": REPORT}) is None  # two owners
    reply = f"{FENCE}python\n{FIXED}{FENCE}\n"
    assert [b.path for b in file_blocks(reply, ["catalog.py", "report.py"], None, shown, True)] == [
        "report.py"
    ]
    assert file_blocks(reply, ["catalog.py", "report.py"], None, shown, False) == []


def _rename(tmp_path: Path, without: frozenset[str]):
    make(tmp_path)
    second = files(("catalog.py", RENAMED)) + f"\n{FENCE}python\n{FIXED}{FENCE}\n"
    coder = [files(("catalog.py", RENAMED)), second]
    return crew(tmp_path, REQUEST, coder=coder, rounds=2, without=OFF | without)[0]


def test_in_a_run_the_nameless_report_py_is_written(tmp_path: Path) -> None:
    summary = _rename(tmp_path, frozenset())
    assert (tmp_path / "report.py").read_text() == FIXED and summary.checks_passed


def test_switched_off_it_is_not(tmp_path: Path) -> None:
    summary = _rename(tmp_path, frozenset({"nameless_block_owner"}))
    assert (tmp_path / "report.py").read_text() == REPORT and not summary.checks_passed
