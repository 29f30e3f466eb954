def reminder_text(customer, amount, days_late):
    tone = "friendly" if days_late < 30 else "firm"
    if tone == "friendly":
        return f"Hi {customer}, a gentle reminder that {amount:.2f} EUR is {days_late} days overdue."
    return f"Dear {customer}, {amount:.2f} EUR is now {days_late} days overdue. Please pay within 7 days."
