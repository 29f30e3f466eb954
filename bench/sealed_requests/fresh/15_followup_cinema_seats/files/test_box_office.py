from box_office import new_screening, sell, sold_out


def test_sell():
    show = new_screening("Heat")
    assert sell(show, "C", 5, ["standard", "standard", "child"]) == 30.0
    assert not show.is_free("C", 7)


def test_sold_out():
    show = new_screening("Heat")
    for row in "ABCDEFGH":
        sell(show, row, 1, ["standard"] * 14)
    assert sold_out(show)
