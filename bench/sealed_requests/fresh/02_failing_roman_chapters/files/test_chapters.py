from chapters import heading


def test_heading():
    assert heading(9, "Home Again") == "Chapter IX: Home Again"
