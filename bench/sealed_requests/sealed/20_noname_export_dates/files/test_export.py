from export import format_amount
from transactions import SAMPLE, balance


def test_amount():
    assert format_amount(3) == "3.00"


def test_balance():
    assert balance(SAMPLE) == 1364.5
