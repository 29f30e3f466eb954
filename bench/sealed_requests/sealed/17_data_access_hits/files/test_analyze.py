from analyze import errors, status_counts, unique_visitors

ROWS = [
    {"ip": "a", "path": "/", "status": 200},
    {"ip": "b", "path": "/x", "status": 404},
    {"ip": "a", "path": "/", "status": 500},
]


def test_errors():
    assert [r["status"] for r in errors(ROWS)] == [404, 500]


def test_visitors():
    assert unique_visitors(ROWS) == 2


def test_status_counts():
    assert status_counts(ROWS) == {200: 1, 404: 1, 500: 1}
