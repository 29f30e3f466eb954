from payroll import income_tax, monthly_figures


def test_tax_bands():
    assert income_tax(12_000) == 0
    assert income_tax(30_000) == 3_486.0
    assert income_tax(60_000) == 11_432.0


def test_monthly_figures():
    figures = monthly_figures(30_000)
    assert figures["gross"] == 2_500.0
    assert figures["tax"] == 290.5
    assert figures["pension"] == 125.0
    assert figures["net"] == 2_084.5


def test_no_pension():
    assert monthly_figures(30_000, pension=False)["net"] == 2_209.5
