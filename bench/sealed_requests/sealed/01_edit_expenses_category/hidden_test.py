import hashlib
from datetime import date
from pathlib import Path

import budget
import cli
from expenses import make_expense, this_month, total
from test_expenses import test_budget, test_by_month, test_positive_only, test_total  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_expenses.py": "b728200242a9b5b53b0729c2ba852b10302bb3df7003807ef761c1127d3fea4c", "budget.py": "45f248a34c29924db5358c77527a60667b78ae30c485df9308326c76505b7421", "cli.py": "c77a828bdb1f5b7d3578c174b7b2d1c020733b35dd0c74432f00c777eff6e102"}
E = [
    make_expense(date(2024, 3, 1), 10, "food"),
    make_expense(date(2024, 3, 2), 2.5, "fun"),
    make_expense(date(2024, 3, 3), 4.25, "food"),
    make_expense(date(2024, 3, 4), 30, "rent"),
]


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_total_of_one_category():
    assert total(E, category="food") == 14.25
    assert total(E, "rent") == 30
    assert total(E, category="travel") == 0


def test_total_of_everything_as_before():
    assert total(E) == 46.75
    assert total(E, category=None) == 46.75
    assert total([]) == 0


def test_the_rest_still_works(capsys):
    assert budget.remaining(50, E) == 3.25
    assert len(this_month(E, today=date(2024, 3, 20))) == 4
    assert cli.main(["100"]) == 0
    assert "left: 40.25" in capsys.readouterr().out
