"""Fixed-rate loans: the monthly payment and the repayment schedule."""


def monthly_payment(principal, annual_rate, months):
    """The fixed monthly payment that pays `principal` off in `months` at `annual_rate` percent a year."""
    if months <= 0:
        raise ValueError("months must be positive")
    if annual_rate == 0:
        return round(principal / months, 2)
    r = annual_rate / 100 / 12
    return round(principal * r / (1 - (1 + r) ** -months), 2)


def schedule(principal, annual_rate, months):
    """One row per month: (month, interest, repaid, balance left)."""
    payment = monthly_payment(principal, annual_rate, months)
    r = annual_rate / 100 / 12
    balance = principal
    rows = []
    for month in range(1, months + 1):
        interest = round(principal * r, 2)
        repaid = balance if month == months else round(payment - interest, 2)
        balance = round(balance - repaid, 2)
        rows.append((month, interest, repaid, balance))
    return rows


def total_interest(principal, annual_rate, months):
    return round(sum(row[1] for row in schedule(principal, annual_rate, months)), 2)
