"""Rule rename_verified: asked for a rename, a run whose project tests pass as they did before is
approved once the files show the rename complete (the old name used nowhere in the project's
code, the new one defined); a rename left half done is still held for review."""

from pathlib import Path

import pytest

from agents.request import renames
from agents.rules.rounds.checked_approval import UNCHECKED
from agents.rules.rounds.rename_check import rename_done
from tests.crew_script import crew, files

MATHOPS = "def calc(a, b):\n    return a * b\n"
INVOICE = "from mathops import calc\n\n\ndef total(price, count):\n    return calc(price, count)\n"
TEST_INVOICE = "from invoice import total\n\n\ndef test_total():\n    assert total(3, 4) == 12\n"
ASK = "Rename calc in mathops.py to multiply and update every use."
RENAMED = (
    ("mathops.py", "def multiply(a, b):\n    return a * b\n"),
    ("invoice.py", INVOICE.replace("calc", "multiply")),
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for name, text in (("mathops.py", MATHOPS), ("invoice.py", INVOICE), ("test_invoice.py", TEST_INVOICE)):
        (tmp_path / name).write_text(text)
    return tmp_path


def test_a_complete_rename_that_passes_the_tests_is_approved(project: Path) -> None:
    summary, _, _ = crew(project, ASK, coder=[files(*RENAMED)] * 3, rounds=3)
    assert summary.approved, summary.message
    assert any("calc to multiply" in line for line in summary.checks)  # the user sees the check


def test_switched_off_the_same_run_is_held_for_review(project: Path) -> None:
    summary, _, _ = crew(
        project, ASK, coder=[files(*RENAMED)] * 3, rounds=3, without=frozenset({"rename_verified"})
    )
    assert summary.checks_passed and not summary.approved and summary.message == UNCHECKED


def test_a_rename_that_leaves_the_old_name_in_use_is_held_for_review(project: Path) -> None:
    # The new name defined, and the old one kept as an alias that invoice.py still imports.
    kept = ("mathops.py", "def multiply(a, b):\n    return a * b\n\n\ncalc = multiply\n")
    summary, _, _ = crew(project, ASK, coder=[files(kept)] * 3)
    assert summary.checks_passed and not summary.approved and summary.message == UNCHECKED


def test_the_check_reads_definitions_imports_and_attributes() -> None:
    code = {
        "a.py": "class Order:\n    def total(self):\n        return 1\n",
        "b.py": "def show(o):\n    return o.total()\n",
    }
    assert rename_done({"calc_total": "total"}, code)
    left = dict(code, **{"c.py": "def old(o):\n    return o.calc_total()\n"})
    assert not rename_done({"calc_total": "total"}, left)  # a caller still uses the old method
    assert not rename_done({"calc_total": "sum_total"}, code)  # the new name defined nowhere
    assert not rename_done({"calc_total": "total"}, dict(code, **{"d.py": "def broken(:\n"}))
    assert not rename_done({}, code)


def test_the_request_names_what_is_renamed() -> None:
    assert renames(ASK) == {"calc": "multiply"}
    assert renames("Rename the function by_author in catalog.py to books_by") == {"by_author": "books_by"}
    said_before = "Order.calc_total is a clumsy name. Rename the method to total() and update report.py."
    assert renames(said_before) == {"calc_total": "total"}
    assert renames("The function calc() is badly named, rename it to multiply") == {"calc": "multiply"}
    assert renames("Rename the method to total()") == {}  # no old name said
    assert renames("In report.py the helper is bad. Rename the function to fmt") == {}  # a file is no name
