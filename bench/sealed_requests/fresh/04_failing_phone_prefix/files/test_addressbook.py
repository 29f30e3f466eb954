from addressbook import AddressBook


def test_found_however_it_is_typed():
    book = AddressBook()
    book.add("Priya ", "020 7946 0018")
    assert book.who_is("+44 20 7946 0018") == "Priya"
    assert book.who_is("02079460018") == "Priya"


def test_unknown_and_garbage():
    book = AddressBook()
    assert book.who_is("020 7946 0999") is None
    assert book.who_is("nope") is None
