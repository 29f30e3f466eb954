from billing import INVOICES, overdue


def test_overdue_skips_paid():
    assert [inv["customer"] for inv in overdue(INVOICES)] == ["Ada Byron", "Alan Tur"]
