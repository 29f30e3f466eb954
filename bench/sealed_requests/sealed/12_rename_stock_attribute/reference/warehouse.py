from stock import StockItem


class Warehouse:
    def __init__(self):
        self.items = {}

    def add(self, sku, name, quantity=0):
        self.items[sku] = StockItem(sku, name, quantity)
        return self.items[sku]

    def units(self):
        return sum(item.quantity for item in self.items.values())

    def reorder_list(self):
        return sorted(sku for sku, item in self.items.items() if item.needs_reorder())
