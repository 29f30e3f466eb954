"""Rule expects_output: a program asked to print that prints nothing fails."""

from pathlib import Path

from agents.run.crew_tools import NOTHING_PRINTED
from tests.crew_script import crew, files

SILENT = "def total(xs):\n    return sum(xs)\n"
REQUEST = "Write total.py that sums [1, 2] and prints the sum."


def test_a_silent_program_fails_when_output_is_asked(tmp_path: Path) -> None:
    summary, _, _ = crew(
        tmp_path, REQUEST, coder=[files(("total.py", SILENT))], without=frozenset({"reviewer_checks"})
    )
    assert not summary.checks_passed and any(NOTHING_PRINTED in line for line in summary.checks)


def test_switched_off_it_passes(tmp_path: Path) -> None:
    off = frozenset({"reviewer_checks", "expects_output"})
    summary, _, _ = crew(tmp_path, REQUEST, coder=[files(("total.py", SILENT))], without=off)
    assert summary.checks_passed
