from league import record, standings


def test_a_win():
    table = {}
    record(table, "Rovers", "United", 2, 0)
    assert table["Rovers"]["points"] == 3 and table["United"]["points"] == 0
    assert table["United"]["lost"] == 1


def test_a_draw_gives_both_a_point():
    table = {}
    record(table, "Rovers", "United", 1, 1)
    assert table["Rovers"]["points"] == 1
    assert table["United"]["points"] == 1


def test_standings():
    table = {}
    record(table, "Rovers", "United", 1, 1)
    record(table, "City", "Athletic", 2, 0)
    record(table, "City", "United", 1, 1)
    record(table, "Athletic", "Rovers", 3, 0)
    assert standings(table) == ["City", "Athletic", "United", "Rovers"]
