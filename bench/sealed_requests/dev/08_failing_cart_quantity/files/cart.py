from catalog import price_of


class Cart:
    def __init__(self):
        self.lines = {}  # product -> quantity

    def add(self, product, quantity=1):
        price_of(product)  # unknown products are refused
        self.lines[product] = self.lines.get(product, 0) + quantity

    def remove(self, product):
        self.lines.pop(product, None)

    def count(self):
        return sum(self.lines.values())

    def total(self):
        return round(sum(price_of(product) for product in self.lines), 2)
