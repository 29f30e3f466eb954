from datetime import date

import pytest
from budget import over_budget, remaining
from expenses import by_month, make_expense, total

E = [make_expense(date(2024, 1, 5), 10, "food"), make_expense(date(2024, 2, 1), 5.5, "fun")]


def test_total():
    assert total(E) == 15.5


def test_by_month():
    assert by_month(E) == {"2024-01": 10, "2024-02": 5.5}


def test_budget():
    assert remaining(20, E) == 4.5
    assert over_budget(10, E)


def test_positive_only():
    with pytest.raises(ValueError):
        make_expense(date(2024, 1, 1), 0, "food")
