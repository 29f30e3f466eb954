from dataclasses import dataclass, field


@dataclass
class OrderLine:
    sku: str
    quantity: int
    unit_price: float


@dataclass
class Order:
    number: int
    customer: str
    lines: list = field(default_factory=list)
    shipped: bool = False

    def add(self, sku, quantity, unit_price):
        self.lines.append(OrderLine(sku, quantity, unit_price))

    def total(self):
        return round(sum(line.quantity * line.unit_price for line in self.lines), 2)

    def item_count(self):
        return sum(line.quantity for line in self.lines)
