def money(amount):
    """Amounts as the bank shows them: euro sign, thousands separated, two decimals."""
    sign = "-" if amount < 0 else ""
    return f"{sign}€{abs(amount):.2f}"


def summary(principal, payment, months):
    return f"{money(principal)} over {months} months: {money(payment)} a month"
