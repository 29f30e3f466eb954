"""Plain-text tables for the terminal."""


def cell_text(value):
    return "" if value is None else str(value)


def render(headers, rows):
    """Columns padded to their widest cell and separated by ' | ', a line of dashes under the headers."""
    cells = [[cell_text(value) for value in row] for row in rows]
    widths = [max([len(header)] + [len(row[i]) for row in cells]) for i, header in enumerate(headers)]
    lines = [" | ".join(header.ljust(width) for header, width in zip(headers, widths)).rstrip()]
    lines.append("-+-".join("-" * width for width in widths))
    for row in cells:
        lines.append(" | ".join(text.ljust(width) for text, width in zip(row, widths)).rstrip())
    return "\n".join(lines)
