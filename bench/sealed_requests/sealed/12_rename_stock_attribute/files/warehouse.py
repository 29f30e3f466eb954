from stock import StockItem


class Warehouse:
    def __init__(self):
        self.items = {}

    def add(self, sku, name, qty=0):
        self.items[sku] = StockItem(sku, name, qty)
        return self.items[sku]

    def units(self):
        return sum(item.qty for item in self.items.values())

    def reorder_list(self):
        return sorted(sku for sku, item in self.items.items() if item.needs_reorder())
