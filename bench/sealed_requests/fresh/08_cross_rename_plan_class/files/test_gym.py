import pytest
from billing import amount_due
from members import Member


def test_booking_classes():
    member = Member("Noor", "plus")
    for _ in range(8):
        member.book_class()
    with pytest.raises(ValueError):
        member.book_class()


def test_basic_has_no_classes():
    with pytest.raises(ValueError):
        Member("Tom", "basic").book_class()


def test_amount_due():
    member = Member("Noor", "plus")
    assert amount_due(member, 3) == 117
    assert amount_due(member, 12) == 390
    assert amount_due(member, 1, student=True) == 31.2
