from reminders import reminder_text

INVOICES = [
    {"customer": "Ada Byron", "amount": 120.0, "days_late": 12, "paid": False},
    {"customer": "Alan Tur", "amount": 75.5, "days_late": 45, "paid": False},
    {"customer": "Grace H", "amount": 300.0, "days_late": 3, "paid": True},
]


def overdue(invoices):
    return [inv for inv in invoices if not inv["paid"] and inv["days_late"] > 0]


def overdue_reminders(invoices):
    return [reminder_text(inv["customer"], inv["amount"], inv["days_late"]) for inv in overdue(invoices)]
