from run import all_payslips, total_net


def test_one_payslip_each():
    slips = all_payslips("2025-04")
    assert len(slips) == 3
    assert slips[0].splitlines()[0] == "Payslip 2025-04 - Asha Patel"
    assert "£4,000.00" in slips[0]


def test_total_net():
    assert total_net() > 0
