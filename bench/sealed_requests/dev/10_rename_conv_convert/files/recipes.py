import units

PANCAKES = [("flour", 1.5, "cup"), ("milk", 1.25, "cup"), ("sugar", 2, "tbsp"), ("butter", 3, "tbsp")]


def to_metric(ingredients):
    out = []
    for name, amount, unit in ingredients:
        out.append((name, round(units.conv(amount, unit, "ml"), 1), "ml"))
    return out
