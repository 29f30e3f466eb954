from ledger import Ledger
from numbering import parse_number


def test_numbers_go_up():
    ledger = Ledger()
    first = ledger.issue("a", 10)
    second = ledger.issue("b", 5.5)
    assert parse_number(second) == parse_number(first) + 1
    assert ledger.total() == 15.5
