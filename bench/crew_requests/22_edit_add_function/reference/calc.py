def add(a, b):
    return a + b


def subtract(a, b):
    return a - b


def multiply(a, b):
    return a * b


def percent(part, whole):
    return round(part / whole * 100, 1)
