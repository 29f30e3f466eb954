def money(amount):
    """1234.5 -> '$1,234.50'"""
    return f"${amount:,.2f}"
