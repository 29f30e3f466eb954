"""International Morse code: letters within a word are separated by a space, words by ' / '."""

CODE = {
    "A": ".-", "B": "-...", "C": "-.-.", "D": "-..", "E": ".", "F": "..-.", "G": "--.",
    "H": "....", "I": "..", "J": ".---", "K": "-.-", "L": ".-..", "M": "--", "N": "-.",
    "O": "---", "P": ".--.", "Q": "--.-", "R": ".-.", "S": "...", "T": "-", "U": "..-",
    "V": "...-", "W": ".--", "X": "-..-", "Y": "-.--", "Z": "--..",
    "0": "-----", "1": ".----", "2": "..---", "3": "...--", "4": "....-",
    "5": ".....", "6": "-....", "7": "--...", "8": "---..", "9": "----.",
}  # fmt: skip
LETTERS = {code: letter for letter, code in CODE.items()}


def encode(text):
    """Upper- or lowercase; characters without a code are left out."""
    words = [[CODE[c] for c in word.upper() if c in CODE] for word in text.split()]
    return " / ".join(" ".join(word) for word in words if word)


def decode(code):
    words = code.strip().split("/")
    return " ".join("".join(LETTERS[symbol] for symbol in word.split()) for word in words)
