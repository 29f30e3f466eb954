class Book:
    def __init__(self, title, author, year):
        self.title = title
        self.author = author
        self.year = year

    def __repr__(self):
        return f"Book({self.title!r}, {self.author!r}, {self.year})"


class Library:
    def __init__(self):
        self.books = {}  # title -> Book
        self.checked_out = set()

    def add_book(self, book):
        if book.title in self.books:
            raise ValueError(f"already have {book.title}")
        self.books[book.title] = book

    def find_by_author(self, author):
        return sorted(b.title for b in self.books.values() if b.author == author)

    def checkout(self, title):
        if title not in self.books:
            raise ValueError(f"no book called {title}")
        if title in self.checked_out:
            raise ValueError(f"{title} is already checked out")
        self.checked_out.add(title)

    def return_book(self, title):
        self.checked_out.discard(title)

    def available(self):
        return sorted(title for title in self.books if title not in self.checked_out)

    def __len__(self):
        return len(self.books)
