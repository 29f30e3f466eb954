import ast
import hashlib
from pathlib import Path

import payroll
import payslip
import run
from test_payroll import test_monthly_figures, test_no_pension, test_tax_bands  # noqa: F401
from test_run import test_one_payslip_each, test_total_net  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_payroll.py": "66a2b4a2b128a79a88687e24ef63826bc41cb2b1263ad424efecab30a6124027", "test_run.py": "c7625b17fd8d37ae5c864b0852b31304c73f3aa1f9aee9b1e0470c18fcf40819"}
MOVED = {"money", "payslip_lines", "payslip_text"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def _defined(name):
    tree = ast.parse((HERE / name).read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_the_payslip_functions_moved():
    assert MOVED <= _defined("payslip.py")
    assert not MOVED & _defined("payroll.py")
    assert {"income_tax", "monthly_figures"} <= _defined("payroll.py")


def test_they_work_from_their_new_home():
    assert payslip.money(1234.5) == "£1,234.50"
    lines = payslip.payslip_lines("Kim Li", 30_000, "2025-05")
    assert lines[0] == "Payslip 2025-05 - Kim Li"
    assert "£2,084.50" in payslip.payslip_text("Kim Li", 30_000, "2025-05")
    assert "£2,209.50" in payslip.payslip_text("Kim Li", 30_000, "2025-05", pension=False)


def test_the_calculations_and_the_run_still_work():
    assert payroll.income_tax(140_000) == 44_175.0
    slips = run.all_payslips("2025-06", [("Ravi", 30_000, True)])
    assert len(slips) == 1 and "Ravi" in slips[0] and "£290.50" in slips[0]
    assert run.total_net([("Ravi", 30_000, True)]) == 2_084.5
