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
