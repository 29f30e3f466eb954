def _shift(ch, shift):
    for first in ("a", "A"):
        start = ord(first)
        if start <= ord(ch) < start + 26:
            return chr(start + (ord(ch) - start + shift) % 26)
    return ch


def encrypt(text, shift):
    return "".join(_shift(ch, shift) for ch in text)


def decrypt(text, shift):
    return encrypt(text, -shift)
