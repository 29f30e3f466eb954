import string

ALPHABET = string.digits + string.ascii_letters


def encode(number):
    if number < 0:
        raise ValueError("negative")
    if number == 0:
        return ALPHABET[0]
    out = []
    while number:
        number, rest = divmod(number, len(ALPHABET))
        out.append(ALPHABET[rest])
    return "".join(reversed(out))


def decode(code):
    number = 0
    for char in code:
        number = number * len(ALPHABET) + ALPHABET.index(char)
    return number
