import contacts

ROWS = [("Bo", "bo@x.org"), ("Al", "al@x.org"), ("Cy", "cy@y.com"), ("O'Neil", "oneil@x.org")]


def test_add_many_and_find_by_domain():
    conn = contacts.connect(":memory:")
    contacts.add_many(conn, ROWS)
    assert contacts.count(conn) == 4
    found = [dict(row) for row in contacts.find_by_domain(conn, "x.org")]
    assert found == [
        {"name": "Al", "email": "al@x.org"},
        {"name": "Bo", "email": "bo@x.org"},
        {"name": "O'Neil", "email": "oneil@x.org"},
    ]
    assert [dict(row) for row in contacts.find_by_domain(conn, "y.com")] == [
        {"name": "Cy", "email": "cy@y.com"}
    ]
    assert list(contacts.find_by_domain(conn, "z.net")) == []


def test_the_other_functions_stay():
    conn = contacts.connect()
    contacts.add_contact(conn, "Di", "di@x.org")
    assert contacts.count(conn) == 1
