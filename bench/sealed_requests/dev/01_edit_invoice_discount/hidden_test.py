import hashlib
from pathlib import Path

import customers
import money
import print_invoice
import pytest
from invoice import grand_total, invoice_total, line_total, tax
from test_invoice import test_grand_total, test_invoice_total, test_line_total, test_tax  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_invoice.py": "3abe8899af76b93c4aa5e7a5859fbd351caeff6f920946446d22a1348805c27f", "customers.py": "ab47657e3b6cfde9aaab97385f3239dad5bbaf26a3cd169832d0a0aed8a8ff4f", "money.py": "5673413870a8260544f509f268000b136087f574f0b1e801d0306ac10354b5fb"}
LINES = [
    {"description": "Desk", "qty": 1, "unit_price": 150.0},
    {"description": "Lamp", "qty": 2, "unit_price": 25.0},
]


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_discount_in_percent():
    assert invoice_total(LINES, discount=10) == pytest.approx(180.0)
    assert invoice_total(LINES, discount=25) == pytest.approx(150.0)
    assert invoice_total(LINES, discount=0) == pytest.approx(200.0)


def test_no_discount_by_default():
    assert invoice_total(LINES) == pytest.approx(200.0)
    assert grand_total(LINES) == pytest.approx(240.0)


def test_the_rest_still_works():
    assert line_total(LINES[1]) == 50.0
    assert tax(100.0) == 20.0
    assert "Acme Ltd" in print_invoice.render("C001", LINES)
    assert money.money(1234.5) == "$1,234.50" and customers.get_customer("C002")
