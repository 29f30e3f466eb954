class Screening:
    """One showing of a film: rows are letters ('A' at the front), seats are numbered from 1."""

    def __init__(self, film, rows, seats_per_row):
        self.film = film
        self.rows = rows
        self.seats_per_row = seats_per_row
        self.taken = set()  # (row, seat)

    def _check(self, row, first, count):
        if row not in self.rows:
            raise ValueError(f"no row {row}")
        if count < 1 or first < 1 or first + count - 1 > self.seats_per_row:
            raise ValueError(f"row {row} has seats 1 to {self.seats_per_row}")

    def book(self, row, first, count=1):
        """Books `count` seats side by side in `row`, starting at seat `first`."""
        self._check(row, first, count)
        seats = [(row, seat) for seat in range(first, first + count)]
        self.taken.update(seats)
        return seats

    def is_free(self, row, seat):
        return (row, seat) not in self.taken

    def free_count(self):
        return len(self.rows) * self.seats_per_row - len(self.taken)
