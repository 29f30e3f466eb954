import hashlib
from pathlib import Path

import compare
import money
import pytest
from loan import monthly_payment, schedule, total_interest
from test_loan import (  # noqa: F401
    test_interest_goes_down_as_the_balance_does,
    test_monthly_payment,
    test_no_months,
    test_schedule_pays_it_off,
    test_total_interest,
)
from test_money import test_small_amounts, test_summary  # noqa: F401

HERE = Path(__file__).resolve().parent
# test_money.py's test_thousands fails too, for a reason of its own (money.py has no thousands
# separator); the request is about test_loan.py.
UNCHANGED = {"test_loan.py": "e5a9b39757fe4b3b07fd2ab9812a8e161bc7479a4f454f26b62c0515731680ee", "test_money.py": "21205bdf03a17f3159cbd0f5cff1e1474dea5f40eac0a103d1c563df289f9647", "compare.py": "0335433fcc7fbe33586334672bded910514a297ad571e3b1e0f191d688413940"}


def test_the_tests_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_each_month_pays_interest_on_what_is_left():
    rows = schedule(5000, 4.8, 36)
    balance = 5000
    for _month, interest, _repaid, left in rows:
        assert interest == pytest.approx(balance * 0.004, abs=0.01)
        balance = left
    assert rows[-1][3] == 0
    assert total_interest(5000, 4.8, 36) == pytest.approx(378.6, abs=0.05)
    assert total_interest(2400, 0, 12) == 0
    assert monthly_payment(5000, 4.8, 36) == pytest.approx(149.41, abs=0.01)


def test_the_comparison_uses_the_right_interest():
    offers = {"a": {"rate": 6, "months": 24, "fee": 0}, "b": {"rate": 4.8, "months": 24, "fee": 100}}
    assert compare.offer_cost(offers["a"], 10000) == pytest.approx(636.94, abs=0.05)
    assert compare.cheapest(offers, 10000) == "b"
    assert callable(money.money)
