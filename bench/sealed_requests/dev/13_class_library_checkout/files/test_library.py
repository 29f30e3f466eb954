import pytest
from library import Book
from members import Member
from seed import starter_library


def test_find_by_author():
    assert starter_library().find_by_author("Jane Austen") == ["Emma", "Persuasion"]


def test_no_duplicates():
    library = starter_library()
    with pytest.raises(ValueError):
        library.add_book(Book("Dune", "Someone", 2000))


def test_member_limit():
    member = Member("Pat")
    member.loans = ["a", "b", "c"]
    assert not member.can_borrow()
