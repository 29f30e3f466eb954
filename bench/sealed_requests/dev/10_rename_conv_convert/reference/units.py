"""Kitchen units, all through grams or millilitres."""

TO_BASE = {"g": 1, "kg": 1000, "oz": 28.35, "lb": 453.6, "ml": 1, "l": 1000, "cup": 240, "tbsp": 15, "tsp": 5}
MASS = {"g", "kg", "oz", "lb"}


def convert(value, frm, to):
    if (frm in MASS) != (to in MASS):
        raise ValueError(f"cannot convert {frm} to {to}")
    return value * TO_BASE[frm] / TO_BASE[to]


def pretty(value, unit):
    return f"{value:g} {unit}" if value == int(value) else f"{value:.2f} {unit}"
