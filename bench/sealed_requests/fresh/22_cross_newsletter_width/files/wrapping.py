"""Plain-text word wrapping, as the newsletter is sent as text/plain."""


def wrap(text, width=72):
    """Lines of at most `width` characters, broken between words; a longer word gets a line of its own."""
    lines, current = [], ""
    for word in text.split():
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines


def bullet(text, width=72):
    """'- ' before the first line, two spaces before the rest."""
    lines = wrap(text, width - 2)
    return [("- " if n == 0 else "  ") + line for n, line in enumerate(lines)]
