class StockItem:
    def __init__(self, sku, name, quantity=0, reorder_at=5):
        self.sku = sku
        self.name = name
        self.quantity = quantity
        self.reorder_at = reorder_at

    def receive(self, amount):
        if amount <= 0:
            raise ValueError("receive a positive amount")
        self.quantity += amount

    def ship(self, amount):
        if amount > self.quantity:
            raise ValueError(f"only {self.quantity} of {self.sku} in stock")
        self.quantity -= amount

    def needs_reorder(self):
        return self.quantity <= self.reorder_at
