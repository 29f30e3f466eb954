from units import convert, pretty


def total_weight(items):
    """items: (amount, unit) pairs of masses -> total in kg."""
    return round(sum(convert(amount, unit, "kg") for amount, unit in items), 3)


def shopping_line(name, amount, unit):
    return f"{name}: {pretty(convert(amount, unit, 'g'), 'g')}"
