import pytest
from loan import monthly_payment, schedule, total_interest


def test_monthly_payment():
    assert monthly_payment(10000, 6, 24) == 443.21
    assert monthly_payment(1200, 0, 12) == 100


def test_no_months():
    with pytest.raises(ValueError):
        monthly_payment(1000, 5, 0)


def test_schedule_pays_it_off():
    rows = schedule(10000, 6, 24)
    assert len(rows) == 24
    assert rows[-1][3] == 0


def test_interest_goes_down_as_the_balance_does():
    rows = schedule(10000, 6, 24)
    assert rows[0][1] == 50.0
    assert rows[1][1] == 48.03
    assert rows[-1][1] < rows[0][1]


def test_total_interest():
    assert total_interest(10000, 6, 24) == 636.94
