from datetime import date


def make_expense(day, amount, category, note=""):
    if amount <= 0:
        raise ValueError("an expense is a positive amount")
    return {"date": day, "amount": round(amount, 2), "category": category.lower(), "note": note}


def total(expenses):
    return round(sum(e["amount"] for e in expenses), 2)


def by_month(expenses):
    months = {}
    for e in expenses:
        key = e["date"].strftime("%Y-%m")
        months[key] = round(months.get(key, 0) + e["amount"], 2)
    return months


def this_month(expenses, today=None):
    today = today or date.today()
    return [e for e in expenses if (e["date"].year, e["date"].month) == (today.year, today.month)]
