from invoice import amount
from week import demo_week


def test_hours():
    assert demo_week().hours() == 9.5


def test_projects():
    assert demo_week().projects() == ["app", "website"]


def test_amount():
    assert amount(demo_week(), "website") == 440.0
