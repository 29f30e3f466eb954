import re

from roman import from_roman, to_roman

HEADING = re.compile(r"^chapter\s+([ivxlcdm]+)\b[.:]?\s*(.*)$", re.I)


def heading(number, title):
    return f"Chapter {to_roman(number)}: {title}"


def parse_heading(line):
    """'Chapter XIV: The Storm' -> (14, 'The Storm'); None for a line that is not a heading."""
    match = HEADING.match(line.strip())
    if not match:
        return None
    return from_roman(match.group(1)), match.group(2).strip()


def table_of_contents(lines):
    found = [parsed for parsed in map(parse_heading, lines) if parsed]
    return [f"{number:>3}  {title}" for number, title in found]
