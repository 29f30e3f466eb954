from order import bill

MENU = [{"dish": "a", "price": 2.5, "vegetarian": True}, {"dish": "b", "price": 4.0, "vegetarian": False}]


def test_bill():
    assert bill(MENU, ["a", "b", "a"]) == 9.0


def test_tip():
    assert bill(MENU, ["b"], tip_percent=10) == 4.4
