import hashlib
from pathlib import Path

import box_office
import pytest
from seating import Screening
from test_box_office import test_sell, test_sold_out  # noqa: F401
from test_seating import test_booking_seats, test_seats_that_do_not_exist  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_seating.py": "0b668427e7440e5ff8c7cc1f55624ca93590b78690be57132557d94a3c1e892a", "test_box_office.py": "55b0932fe813dfdfd94633de77ef48cee61fdd03c8400cb2a6575b06df1775d8", "box_office.py": "fe9b44bbfbf9e8c03073009bbf98e515253e95a2f2e038e4d1a0dd55c62361d7"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_free_in_row():
    show = Screening("Up", "AB", 8)
    assert show.free_in_row("A") == 8
    show.book("A", 2, 3)
    show.book("B", 1)
    assert show.free_in_row("A") == 5
    assert show.free_in_row("B") == 7


def test_no_double_booking():
    show = Screening("Up", "AB", 8)
    show.book("A", 3, 2)
    with pytest.raises(ValueError):
        show.book("A", 4, 3)
    assert show.is_free("A", 5) and show.is_free("A", 6)
    assert show.free_in_row("A") == 6
    with pytest.raises(ValueError):
        show.book("A", 3)
    assert show.book("A", 5, 2) == [("A", 5), ("A", 6)]
    with pytest.raises(ValueError):
        box_office.sell(show, "A", 1, ["child", "child", "child"])
    assert show.is_free("A", 1) and show.is_free("A", 2)


def test_cancel():
    show = Screening("Up", "AB", 8)
    show.book("B", 2, 4)
    show.cancel("B", 3, 2)
    assert show.is_free("B", 3) and show.is_free("B", 4)
    assert not show.is_free("B", 2) and not show.is_free("B", 5)
    assert show.free_in_row("B") == 6
    show.cancel("B", 2)
    assert show.free_in_row("B") == 7 and show.free_count() == 15
    show.book("B", 3, 2)
    assert not show.is_free("B", 4)
