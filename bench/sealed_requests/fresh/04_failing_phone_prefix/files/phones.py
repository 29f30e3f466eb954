"""Phone numbers in one shape, +<country><number>, so the same number is found however it was typed."""

HOME_PREFIX = "+44"


def normalize(number, home_prefix=HOME_PREFIX):
    """'020 7946 0018' -> '+442079460018', '0049 30 1234567' -> '+49301234567'."""
    digits = "".join(c for c in number if c.isdigit() or c == "+")
    if digits.startswith("0"):
        digits = home_prefix + digits[1:]
    elif digits.startswith("00"):
        digits = "+" + digits[2:]
    if not digits.startswith("+") or "+" in digits[1:] or not 8 <= len(digits) - 1 <= 15:
        raise ValueError(f"not a phone number: {number!r}")
    return digits


def same_number(a, b):
    return normalize(a) == normalize(b)
