from datetime import date

SAMPLE = [
    {"date": date(2024, 3, 5), "description": "rent", "amount": -950.0},
    {"date": date(2024, 3, 12), "description": "salary", "amount": 2400.0},
    {"date": date(2024, 11, 1), "description": "bike repair", "amount": -85.5},
]


def balance(transactions):
    return round(sum(t["amount"] for t in transactions), 2)
