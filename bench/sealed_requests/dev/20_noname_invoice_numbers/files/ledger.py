from numbering import next_number


class Ledger:
    def __init__(self, last=None):
        self.last = last
        self.entries = []

    def issue(self, customer, amount):
        number = next_number(self.last)
        self.entries.append({"number": number, "customer": customer, "amount": amount})
        self.last = number
        return number

    def total(self):
        return round(sum(e["amount"] for e in self.entries), 2)
