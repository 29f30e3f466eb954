import sqlite3


def connect(path=":memory:"):
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE IF NOT EXISTS contacts (name TEXT NOT NULL, email TEXT NOT NULL)")
    return conn


def add_contact(conn, name, email):
    conn.execute("INSERT INTO contacts (name, email) VALUES (?, ?)", (name, email))
    conn.commit()


def count(conn):
    return conn.execute("SELECT COUNT(*) FROM contacts").fetchone()[0]


def add_many(conn, rows):
    conn.executemany("INSERT INTO contacts (name, email) VALUES (?, ?)", rows)
    conn.commit()


def find_by_domain(conn, domain):
    conn.row_factory = sqlite3.Row
    found = conn.execute(
        "SELECT name, email FROM contacts WHERE email LIKE ? ORDER BY name", ("%@" + domain,)
    ).fetchall()
    return [dict(row) for row in found]
