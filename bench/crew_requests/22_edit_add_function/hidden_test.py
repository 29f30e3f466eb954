import calc


def test_percent():
    assert calc.percent(1, 3) == 33.3
    assert calc.percent(50, 200) == 25.0
    assert calc.percent(2, 3) == 66.7


def test_the_other_functions_stay():
    assert calc.add(2, 3) == 5
    assert calc.subtract(2, 3) == -1
    assert calc.multiply(2, 3) == 6
