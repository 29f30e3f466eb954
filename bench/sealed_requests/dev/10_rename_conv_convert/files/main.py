from recipes import PANCAKES, to_metric
from shopping import shopping_line, total_weight


def main():
    for name, amount, unit in to_metric(PANCAKES):
        print(f"{name}: {amount} {unit}")
    print(shopping_line("cheese", 8, "oz"))
    print(f"bag weight: {total_weight([(2, 'lb'), (500, 'g')])} kg")


if __name__ == "__main__":
    main()
