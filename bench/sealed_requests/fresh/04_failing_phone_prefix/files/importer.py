import csv

from addressbook import AddressBook


def load_csv(path):
    """A CSV export with name,phone columns -> an AddressBook; rows with a bad number are skipped."""
    book, skipped = AddressBook(), []
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            try:
                book.add(row["name"], row["phone"])
            except ValueError:
                skipped.append(row["name"])
    return book, skipped
