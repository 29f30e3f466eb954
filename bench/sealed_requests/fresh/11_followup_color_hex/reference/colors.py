def hex_to_rgb(code):
    """'#1e90ff', '1e90ff', '#fa0' or 'fa0' -> (30, 144, 255) / (255, 170, 0)"""
    digits = code.strip().removeprefix("#")
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    if len(digits) != 6:
        raise ValueError(f"not a colour: {code!r}")
    try:
        return tuple(int(digits[i : i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        raise ValueError(f"not a colour: {code!r}") from None


def rgb_to_hex(r, g, b):
    """(30, 144, 255) -> '#1e90ff'"""
    for value in (r, g, b):
        if not 0 <= value <= 255:
            raise ValueError(f"not a colour value: {value}")
    return f"#{r:02x}{g:02x}{b:02x}"


def luminance(code):
    """Perceived brightness from 0 (black) to 1 (white)."""
    r, g, b = hex_to_rgb(code)
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


def mix(code_a, code_b, share=0.5):
    """The RGB halfway (or `share` of the way) from colour a to colour b."""
    a, b = hex_to_rgb(code_a), hex_to_rgb(code_b)
    return tuple(round(x + (y - x) * share) for x, y in zip(a, b))
