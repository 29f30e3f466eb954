from money import money, summary


def test_small_amounts():
    assert money(12.5) == "€12.50"
    assert money(-3) == "-€3.00"


def test_thousands():
    assert money(10000) == "€10,000.00"
    assert money(1234567.891) == "€1,234,567.89"


def test_summary():
    assert summary(500, 45.5, 12) == "€500.00 over 12 months: €45.50 a month"
