"""Turns Morse code into on/off timings for an LED, in units (a dot is one unit)."""

DOT, DASH, GAP, LETTER_GAP, WORD_GAP = 1, 3, 1, 3, 7


def timings(code):
    """'.- / -' -> [(True, 1), (False, 1), (True, 3), (False, 7), (True, 3)]"""
    out = []
    for w, word in enumerate(code.split(" / ")):
        if w:
            out.append((False, WORD_GAP))
        for n, letter in enumerate(word.split()):
            if n:
                out.append((False, LETTER_GAP))
            for s, symbol in enumerate(letter):
                if s:
                    out.append((False, GAP))
                out.append((True, DOT if symbol == "." else DASH))
    return out


def duration(code, unit_ms=120):
    return sum(units for _on, units in timings(code)) * unit_ms
