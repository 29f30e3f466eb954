class StockItem:
    def __init__(self, sku, name, qty=0, reorder_at=5):
        self.sku = sku
        self.name = name
        self.qty = qty
        self.reorder_at = reorder_at

    def receive(self, amount):
        if amount <= 0:
            raise ValueError("receive a positive amount")
        self.qty += amount

    def ship(self, amount):
        if amount > self.qty:
            raise ValueError(f"only {self.qty} of {self.sku} in stock")
        self.qty -= amount

    def needs_reorder(self):
        return self.qty <= self.reorder_at
