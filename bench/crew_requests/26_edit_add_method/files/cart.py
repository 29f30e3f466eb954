class Cart:
    def __init__(self):
        self.items = {}

    def add_item(self, name, price):
        self.items[name] = price

    def total(self):
        return sum(self.items.values())

    def count(self):
        return len(self.items)
