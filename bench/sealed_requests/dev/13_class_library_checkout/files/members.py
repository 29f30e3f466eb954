class Member:
    MAX_LOANS = 3

    def __init__(self, name):
        self.name = name
        self.loans = []

    def can_borrow(self):
        return len(self.loans) < self.MAX_LOANS
