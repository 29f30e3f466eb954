from shopping import shopping_line, total_weight


def test_total_weight():
    assert total_weight([(1, "kg"), (500, "g")]) == 1.5


def test_shopping_line():
    assert shopping_line("rice", 2, "kg") == "rice: 2000 g"
