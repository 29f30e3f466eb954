from orders import Order
from report import biggest, daily_report


def sample_orders():
    first = Order(1, "Nora")
    first.add("PEN-01", 10, 1.2)
    second = Order(2, "Omar", shipped=True)
    second.add("INK-07", 2, 8.5)
    second.add("PAD-02", 1, 3.0)
    return [first, second]


def main():
    orders = sample_orders()
    print(daily_report(orders))
    top = biggest(orders)
    print(f"biggest: #{top.number} with {top.calc_total():.2f}")


if __name__ == "__main__":
    main()
