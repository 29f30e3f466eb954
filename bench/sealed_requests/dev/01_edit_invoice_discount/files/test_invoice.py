from invoice import grand_total, invoice_total, line_total, tax

LINES = [
    {"description": "Widget", "qty": 2, "unit_price": 50.0},
    {"description": "Gadget", "qty": 1, "unit_price": 100.0},
]


def test_line_total():
    assert line_total(LINES[0]) == 100.0


def test_invoice_total():
    assert invoice_total(LINES) == 200.0


def test_tax():
    assert tax(200.0) == 40.0


def test_grand_total():
    assert grand_total(LINES) == 240.0
