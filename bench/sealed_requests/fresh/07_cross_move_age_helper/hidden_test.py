import ast
import hashlib
from datetime import date
from pathlib import Path

import billing
import dates
import pets
import vaccines
from test_clinic import test_describe, test_due, test_visit_price  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_clinic.py": "33fc75c2e62f0faa99c14357d6a6c965016e1870118be2ca00ef55e57e46cf54"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def _tree(name):
    return ast.parse((HERE / name).read_text(encoding="utf-8"))


def test_it_lives_in_dates():
    assert dates.age_in_months(date(2024, 1, 31), date(2024, 3, 30)) == 1
    assert dates.age_in_months(date(2024, 1, 31), date(2024, 3, 31)) == 2
    assert dates.age_in_months(date(2020, 6, 1), date(2025, 6, 1)) == 60
    assert dates.age_in_months(date(2025, 6, 1), date(2025, 5, 1)) == 0
    defined = [n.name for n in _tree("vaccines.py").body if isinstance(n, ast.FunctionDef)]
    assert "age_in_months" not in defined


def test_nobody_imports_it_from_vaccines():
    for name in ("pets.py", "billing.py"):
        for node in ast.walk(_tree(name)):
            if isinstance(node, ast.ImportFrom) and node.module == "vaccines":
                assert "age_in_months" not in [a.name for a in node.names], name


def test_the_clinic_still_works():
    today = date(2025, 9, 10)
    kitten = pets.Pet("Tig", "cat", date(2025, 5, 10))
    assert vaccines.due("cat", kitten.born, ["cat flu"], today) == ["enteritis", "rabies"]
    assert pets.life_stage(kitten, today) == "young"
    assert billing.visit_price(kitten, ["rabies"], today) == 22.5 + 28
