def hex_to_rgb(code):
    """'#1e90ff' -> (30, 144, 255)"""
    code = code.strip()
    if len(code) != 7 or not code.startswith("#"):
        raise ValueError(f"not a colour: {code!r}")
    try:
        return tuple(int(code[i : i + 2], 16) for i in (1, 3, 5))
    except ValueError:
        raise ValueError(f"not a colour: {code!r}") from None


def luminance(code):
    """Perceived brightness from 0 (black) to 1 (white)."""
    r, g, b = hex_to_rgb(code)
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


def mix(code_a, code_b, share=0.5):
    """The RGB halfway (or `share` of the way) from colour a to colour b."""
    a, b = hex_to_rgb(code_a), hex_to_rgb(code_b)
    return tuple(round(x + (y - x) * share) for x, y in zip(a, b))
