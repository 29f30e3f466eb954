from units import conv, pretty


def total_weight(items):
    """items: (amount, unit) pairs of masses -> total in kg."""
    return round(sum(conv(amount, unit, "kg") for amount, unit in items), 3)


def shopping_line(name, amount, unit):
    return f"{name}: {pretty(conv(amount, unit, 'g'), 'g')}"
