class Inventory:
    def __init__(self):
        self._items = {}

    def add(self, name, qty):
        self._items[name] = self._items.get(name, 0) + qty

    def remove(self, name, qty):
        if self._items.get(name, 0) < qty:
            raise ValueError(f"not enough {name}")
        self._items[name] -= qty

    def count(self, name):
        return self._items.get(name, 0)
