import re

HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")


def find_headings(text):
    """(level, title) for each markdown heading, in order."""
    found = []
    for line in text.splitlines():
        match = HEADING.match(line)
        if match:
            found.append((len(match.group(1)), match.group(2)))
    return found
