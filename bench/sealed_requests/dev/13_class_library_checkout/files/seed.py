from library import Book, Library


def starter_library():
    library = Library()
    for title, author, year in [
        ("Dune", "Frank Herbert", 1965),
        ("Emma", "Jane Austen", 1815),
        ("Persuasion", "Jane Austen", 1817),
        ("Solaris", "Stanislaw Lem", 1961),
    ]:
        library.add_book(Book(title, author, year))
    return library
