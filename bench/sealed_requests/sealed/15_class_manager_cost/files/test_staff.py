import pytest
from org import names, sample_org
from payroll import payslip
from staff import Employee, Manager


def test_raise():
    e = Employee("x", 1000)
    e.raise_salary(10)
    assert e.salary == 1100


def test_team():
    assert names(sample_org()) == ["Dee", "Eve"]


def test_not_own_report():
    m = Manager("m", 1)
    with pytest.raises(ValueError):
        m.add_report(m)


def test_payslip():
    assert payslip(Employee("Al", 24000)) == "Al: 2000.00 a month"
