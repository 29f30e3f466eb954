import hashlib
from pathlib import Path

from org import sample_org
from staff import Employee, Manager
from test_staff import test_not_own_report, test_payslip, test_raise, test_team  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_staff.py": "a152a9644e607b98351aabd5519cc769ce57b42049022ca7b91def50fae9efe3", "org.py": "e62e4fc4b1dafd8686375f0add8f33a22f59d0790369cba2cba1a64f88dc99fb", "payroll.py": "cd632602bb96fc0e050606a64bd59327a9f69cca202220935d2772ebd7f0d8c6"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_employee_cost_is_the_salary():
    assert Employee("x", 5000).annual_cost() == 5000


def test_manager_cost_goes_all_the_way_down():
    cto = sample_org()
    assert cto.annual_cost() == 150000 + 90000 + 70000 + 65000 + 85000 + 60000
    assert cto.reports[0].annual_cost() == 90000 + 70000 + 65000
    assert Manager("solo", 1000).annual_cost() == 1000


def test_costs_follow_changes():
    cto = sample_org()
    cto.reports[1].add_report(Employee("Gus", 40000))
    cto.reports[0].reports[0].raise_salary(10)
    assert cto.annual_cost() == 520000 + 40000 + 7000
    assert cto.team_size() == 2
