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

    def add_book(self, book):
        if book.title in self.books:
            raise ValueError(f"already have {book.title}")
        self.books[book.title] = book

    def find_by_author(self, author):
        return sorted(b.title for b in self.books.values() if b.author == author)

    def __len__(self):
        return len(self.books)
