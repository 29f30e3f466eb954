import sys
from datetime import date

from budget import remaining
from expenses import by_month, make_expense

SAMPLE = [
    make_expense(date(2024, 4, 2), 12.5, "Food", "lunch"),
    make_expense(date(2024, 4, 9), 40, "Transport", "train"),
    make_expense(date(2024, 5, 1), 7.25, "food", "coffee beans"),
]


def main(argv):
    budget = float(argv[0]) if argv else 100.0
    for month, amount in sorted(by_month(SAMPLE).items()):
        print(f"{month}: {amount:.2f}")
    print(f"left: {remaining(budget, SAMPLE):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
