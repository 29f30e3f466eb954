"""Plain-text tables for the terminal."""


def is_number(value):
    return isinstance(value, int | float) and not isinstance(value, bool)


def cell_text(value):
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def render(headers, rows):
    """Columns padded to their widest cell and separated by ' | ', a line of dashes under the headers.
    Numbers are right-aligned, everything else left-aligned."""
    cells = [[(cell_text(value), is_number(value)) for value in row] for row in rows]
    widths = [max([len(header)] + [len(row[i][0]) for row in cells]) for i, header in enumerate(headers)]
    lines = [" | ".join(header.ljust(width) for header, width in zip(headers, widths)).rstrip()]
    lines.append("-+-".join("-" * width for width in widths))
    for row in cells:
        parts = [text.rjust(width) if number else text.ljust(width) for (text, number), width in zip(row, widths)]
        lines.append(" | ".join(parts).rstrip())
    return "\n".join(lines)
