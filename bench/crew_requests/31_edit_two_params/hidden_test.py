import report


def test_join_names():
    assert report.join_names(["a", "b"]) == "a, b"
    assert report.join_names(["a", "b"], sep=" / ") == "a / b"


def test_bullet_list():
    assert report.bullet_list(["x", "y"]) == "- x\n- y"
    assert report.bullet_list(["x", "y"], marker="* ") == "* x\n* y"


def test_header_stays():
    assert report.header("Sales") == "SALES\n====="
