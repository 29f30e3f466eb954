class VendingMachine:
    COINS = (5, 10, 20, 50, 100, 200)

    def __init__(self, prices):
        self.prices = dict(prices)  # item -> cents
        self.stock = {item: 0 for item in self.prices}
        self.inserted = 0
        self.cash = 0

    def load(self, item, count):
        self.stock[item] += count

    def insert(self, coin):
        if coin not in self.COINS:
            raise ValueError(f"not a coin: {coin}")
        self.inserted += coin

    def buy(self, item):
        if self.stock.get(item, 0) == 0:
            raise LookupError(f"{item} is sold out")
        price = self.prices[item]
        if self.inserted < price:
            raise ValueError(f"{item} costs {price}, only {self.inserted} inserted")
        self.stock[item] -= 1
        change = self.inserted - price
        self.cash += price
        self.inserted = 0
        return change
